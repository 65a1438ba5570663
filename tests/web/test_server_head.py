"""HEAD is answered wherever GET is, with GET's status and headers and no body."""

from __future__ import annotations

import httpx
import pytest

PATHS = ["/", "/review", "/rules", "/strategy", "/solver", "/healthz", "/api/presets", "/docs",
         "/openapi.json", "/static/css/tiles.css", "/no-such-page"]  # fmt: skip


@pytest.mark.parametrize("path", PATHS)
def test_head_answers_what_get_answers_without_the_body(http: httpx.Client, path: str) -> None:
    get = http.get(path)
    head = http.head(path)
    assert head.status_code == get.status_code
    assert head.content == b""
    for name in ("content-type", "content-length", "content-security-policy"):
        assert head.headers.get(name) == get.headers.get(name), name


def test_head_of_the_page_is_200_as_curl_sees_it(server_url: str) -> None:
    """`curl -I http://127.0.0.1:2048/`: the page is there."""
    with httpx.Client() as client:
        head = client.head(server_url + "/")
    assert head.status_code == 200
    assert head.headers["content-type"].startswith("text/html")


def test_head_of_a_route_that_only_takes_post_is_still_405(http: httpx.Client) -> None:
    head = http.head("/api/move")
    assert head.status_code == 405 and head.content == b""
