"""The read side: what the pages show, derived from the facts; it never writes and never imports the write side or the web."""
