"""/docs in headless Chromium: Swagger UI starts under the page's Content-Security-Policy
(its inline script allowed by hash), loads the schema and shows every operation, with no
console error (a refused script is one) and no request leaving the server."""

from __future__ import annotations

from typing import Any

import pytest

from tests.web.browser import browser, open_session

pytestmark = pytest.mark.browser
__all__ = ["browser"]  # the fixture, taken from tests.web.browser


def test_the_api_docs_run_under_their_security_policy(browser: Any, server_url: str) -> None:
    with open_session(browser, server_url) as session:
        response = session.page.goto(f"{server_url}/docs")
        assert response is not None
        policy = response.headers["content-security-policy"]
        assert (
            "script-src 'self' 'sha256-" in policy
            and "'unsafe-inline'" not in policy.split("script-src")[1]
        )
        session.page.wait_for_selector(".swagger-ui .info .title", timeout=30_000)
        assert "py2048" in session.page.inner_text(".swagger-ui .info .title")
        session.page.wait_for_selector(".opblock-summary-path[data-path='/api/move']")
