"""The write side: one module per domain; every change of the facts is made here, in one transaction."""
