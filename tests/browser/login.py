"""Logging a browser page in as the tests' organiser (``tests/conftest.py``: organiser / salasana-1)."""


def log_in(page, base_url: str, username: str = "organiser", password: str = "salasana-1") -> None:
    """Through the login form, as a person would; back on the organiser's home page."""
    page.goto(f"{base_url}/kirjaudu/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", password)
    page.locator("main form button[type=submit]").click()
    page.wait_for_url("**/jarjestaja/")
