"""``lib.http``: the one integer-parameter parser and the one safe way back (issue #26: six parsers and two
redirect-back helpers with different checks became one each)."""

from __future__ import annotations

import pytest
from django.test import RequestFactory, override_settings

from lib.http import int_param, loopback, pdf_response, public_url, redirect_back


@pytest.mark.parametrize(("value", "expected"), [("7", 7), ("0", 0), ("123456789012345678", 123456789012345678)])
def test_an_integer_parameter(value, expected):
    assert int_param(value) == expected


@pytest.mark.parametrize("value", [None, "", "-1", " 2", "+3", "1e3", "٣", "x", "1234567890123456789"])
def test_what_is_not_an_integer_parameter_is_the_default(value):
    assert int_param(value) is None
    assert int_param(value, 5) == 5


def back(target, **kwargs):
    request = RequestFactory().post("/", {"back": target} if target is not None else {})
    return redirect_back(request, "/fallback/", **kwargs)["Location"]


def test_back_to_a_path_of_this_site():
    assert back("/jarjestaja/kisa/tulokset/?lohko=A") == "/jarjestaja/kisa/tulokset/?lohko=A"
    assert back("/jarjestaja/kisa/", under="/jarjestaja/") == "/jarjestaja/kisa/"


@pytest.mark.parametrize(
    "target",
    [None, "", "https://evil.example/", "//evil.example/", "/\\evil.example/", "/jarjestaja//evil.example/",
     "organiser:results", "javascript:alert(1)"],
)
def test_never_back_to_another_site(target):
    assert back(target) == "/fallback/"


def test_back_only_under_the_prefix_asked():
    assert back("/tulokset/", under="/jarjestaja/") == "/fallback/"


def test_back_reads_the_field_named():
    request = RequestFactory().post("/", {"next": "/jarjestaja/x/"})
    assert redirect_back(request, "/fallback/", field="next")["Location"] == "/jarjestaja/x/"
    assert redirect_back(request, "/fallback/")["Location"] == "/fallback/"


@override_settings(TUPPI_PUBLIC_URL="http://192.168.1.20:8000/")
def test_public_url_prefers_the_configured_address():
    assert public_url(RequestFactory().get("/"), "/l/abc/") == "http://192.168.1.20:8000/l/abc/"


@override_settings(TUPPI_PUBLIC_URL="")
def test_public_url_else_the_host_asked():
    assert public_url(RequestFactory().get("/", HTTP_HOST="tuppi.example"), "/x/") == "http://tuppi.example/x/"
    assert loopback(public_url(RequestFactory().get("/", HTTP_HOST="127.0.0.1:8000"), "/"))


def test_a_pdf_answer():
    response = pdf_response(b"%PDF-1.7", "kisa.pdf")
    assert response["Content-Type"] == "application/pdf"
    assert response["Content-Disposition"] == 'inline; filename="kisa.pdf"'
