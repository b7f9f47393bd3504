"""The read side: the registry as a document for the venue laptops."""
