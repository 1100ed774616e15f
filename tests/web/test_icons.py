"""The icons a browser shows for the app: the tab's icon, and the home-screen icon and name a
phone or tablet takes from the manifest when the scoreboard is added to it."""

from __future__ import annotations

import json
import re

from flask.testing import FlaskClient


def test_every_page_names_its_icon_and_manifest_and_both_are_served(client: FlaskClient) -> None:
    page = client.get("/").get_data(as_text=True)
    icon = re.search(r'<link rel="icon" href="([^"]+)" type="image/svg\+xml">', page)
    manifest = re.search(r'<link rel="manifest" href="([^"]+)">', page)
    assert icon is not None and manifest is not None
    served = client.get(icon[1])
    assert served.status_code == 200
    assert served.mimetype == "image/svg+xml"
    assert served.get_data(as_text=True).lstrip().startswith("<svg")

    answer = client.get(manifest[1])
    assert answer.status_code == 200
    assert answer.mimetype == "application/manifest+json"
    found = json.loads(answer.get_data(as_text=True))
    assert (found["name"], found["start_url"], found["display"]) == ("Atelier", "/", "standalone")
    # The manifest's icon is the tab's icon, relative to the manifest's own address.
    assert [i["src"] for i in found["icons"]] == [icon[1].rsplit("/", 1)[1]]
