"""The project's own library: small pieces that serve the site but know nothing of its apps (it imports
no ``tournaments``, ``cup``, ``teams`` or ``tuppiliitto``; ``tests/test_architecture.py`` holds it)."""
