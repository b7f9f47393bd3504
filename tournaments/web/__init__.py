"""The web layer: views by audience, their URLs and forms, permissions."""
