"""The write side: tokens made and revoked, a registry brought from the federation's site."""
