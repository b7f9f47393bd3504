"""The web layer: the registry and import API, the organiser's token page."""
