"""The outputs: printouts (PDFs)."""
