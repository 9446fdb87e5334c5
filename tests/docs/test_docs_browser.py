"""The built site renders in a real browser: Debian's Chromium, headless, shows the home page
and SL101's page with the check's title and its code sample visible.

A page that builds can still render blank (a theme's script failing, content hidden by CSS);
only a browser tells. Visibility is asked of the browser itself: a script appended to a copy
of the page records, for the title and the code block, ``checkVisibility()`` and a non-empty
box, and ``--dump-dom`` returns the DOM with the answer.
"""

from __future__ import annotations

import json
import re
import shutil
import struct
import subprocess
from pathlib import Path

import pytest
from site_build import Build

from scalarlint.checks import BY_CODE

pytestmark = pytest.mark.slow

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
needs_chromium = pytest.mark.skipif(
    CHROMIUM is None,
    reason="Chromium is not installed (apt-get install --no-install-recommends chromium; .ci/run does)",
)

PROBE = """<script>
(() => {
  const shown = el => !!el && el.checkVisibility({opacityProperty: true, visibilityProperty: true})
    && el.getBoundingClientRect().width > 0 && el.getBoundingClientRect().height > 0;
  const norm = s => s.replace(/\\s+/g, " ").trim();
  const h1 = document.querySelector("article h1");
  const sample = norm(%s);
  const code = [...document.querySelectorAll("article pre")].find(p => norm(p.textContent).includes(sample));
  document.body.dataset.probe = JSON.stringify({
    title: h1 ? norm(h1.textContent) : null, titleShown: shown(h1), codeFound: !!code, codeShown: shown(code),
  });
})();
</script>
"""


def chromium(*args: str, profile: Path) -> subprocess.CompletedProcess[str]:
    """One headless run; ``--no-sandbox`` because CI runs as root, where the sandbox cannot start."""
    assert CHROMIUM is not None
    cmd = [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", f"--user-data-dir={profile}", *args]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=120, check=False)


def code_sample(code: str) -> str:
    """The first Python block of a check's own documentation (its Example)."""
    match = re.search(r"```python\n(.*?)```", BY_CODE[code].INFO.doc, re.DOTALL)
    assert match, f"{code}'s documentation has no code sample"
    return match.group(1)


def probe(page: Path, sample: str, profile: Path) -> dict[str, object]:
    """Render ``page`` with the probe appended and return what the probe saw."""
    html = page.read_text(encoding="utf-8")
    probed = page.with_name("probed.html")
    probed.write_text(html.replace("</body>", PROBE % json.dumps(sample) + "</body>"), encoding="utf-8")
    run = chromium("--dump-dom", probed.as_uri(), profile=profile)
    assert run.returncode == 0, run.stderr[-2000:]
    match = re.search(r'data-probe="([^"]*)"', run.stdout)
    assert match, "the probe did not run: " + run.stdout[:500]
    return json.loads(match.group(1).replace("&quot;", '"').replace("&amp;", "&"))


@needs_chromium
def test_check_page_shows_title_and_code_sample(built_site: Build, tmp_path: Path) -> None:
    seen = probe(built_site.site / "checks" / "sl101" / "index.html", code_sample("SL101"), tmp_path)
    assert seen == {"title": "SL101 scalar-getindex¶", "titleShown": True, "codeFound": True, "codeShown": True}


@needs_chromium
def test_home_page_shows_its_title(built_site: Build, tmp_path: Path) -> None:
    seen = probe(built_site.site / "index.html", "scalarlint check src/", tmp_path)
    assert seen["title"] == "scalarlint¶" and seen["titleShown"] is True and seen["codeShown"] is True


@needs_chromium
def test_screenshot_is_an_image_of_the_page(built_site: Build, tmp_path: Path) -> None:
    """The command that made docs/screenshots/sl101.png gives a PNG of the window's size."""
    shot = tmp_path / "sl101.png"
    page = built_site.site / "checks" / "sl101" / "index.html"
    run = chromium(f"--screenshot={shot}", "--window-size=1280,1400", "--hide-scrollbars", page.as_uri(), profile=tmp_path / "p")
    assert run.returncode == 0, run.stderr[-2000:]
    data = shot.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    assert struct.unpack(">II", data[16:24]) == (1280, 1400)
