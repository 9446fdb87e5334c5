"""Rebuild the folder of checkouts that ``benchmarks/recall.py`` reads, from ``SOURCES.md``.

Why: the repository keeps only labels, never the labelled code, so the unpacked releases live
outside it and are lost with the machine. This restores them from the pins in ``SOURCES.md``:
PyPI release files (found through PyPI's JSON API, checked against the listed sha256) and GitHub
commits (``git archive`` from a local git mirror: this machine may have no route to GitHub; a
note after the commit, e.g. ``(pyredner_tensorflow/)``, limits it to those paths), each unpacked
into the folder a label file's ``project`` line names. Non-empty folders are left alone.

    python benchmarks/recall/fetch_sources.py DEST [--mirrors DIR] [--only NAME ...]

A mirror is ``DIR/<owner>+<repo>`` with its git dir at ``repo/.git``, ``repo`` or the folder
itself (the layouts a bare or working mirror of a snapshot may have). Snapshots may lack the
blobs of big assets; those files are left out of the archive and named in the summary.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import urllib.parse
import urllib.request
import zipfile
from dataclasses import dataclass, field
from pathlib import Path

SOURCES = Path(__file__).resolve().with_name("SOURCES.md")
GITHUB = re.compile(r"GitHub\s+(\S+/\S+)\s+([0-9a-f]{40})\s*(?:\((.*)\))?")
SDIST = re.compile(r"(.+?)-(\d[^-]*)\.(?:tar\.gz|zip)$")


@dataclass
class Row:
    folder: str
    release: str = ""  # PyPI file name; "" for a GitHub row
    sha256: str = ""
    label: str = ""
    repo: str = ""  # owner/name
    commit: str = ""
    paths: list[str] = field(default_factory=list)


def parse_sources(path: Path) -> list[Row]:
    """Rows of both table kinds: ``folder | release | sha256`` and ``# | label | framework | folder | release | sha256``."""
    rows = []
    for line in path.read_text(encoding="utf-8").splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")] if line.startswith("|") else []
        if len(cells) not in (3, 6) or cells[-3] in ("project folder", "") or set(cells[-3]) <= set("-"):
            continue  # prose, header or separator
        label, folder, release, sha = ("", *cells) if len(cells) == 3 else (cells[1], *cells[3:])
        gh = GITHUB.match(release)
        if gh:
            paths = [p for p in re.split(r"[,\s]+", gh.group(3) or "") if p]
            rows.append(Row(folder, label=label, repo=gh.group(1), commit=gh.group(2), paths=paths))
        else:
            rows.append(Row(folder, release, sha if re.fullmatch(r"[0-9a-f]{64}", sha) else "", label))
    return rows


def project_names(release: str) -> list[str]:
    """PyPI names to try for a release file: its name part and that name's -/_ variants."""
    match = SDIST.match(release)
    base = match.group(1) if match else release.split("-")[0]
    return list(dict.fromkeys([base, base.replace("_", "-"), base.replace("-", "_"), base.lower()]))


def pypi_url(release: str) -> str:
    errors = []
    for name in project_names(release):
        api = f"https://pypi.org/pypi/{name}/json"
        try:
            with urllib.request.urlopen(api, timeout=60) as response:
                releases = json.load(response).get("releases", {})
        except OSError as e:  # HTTPError (404) and URLError are OSErrors
            errors.append(f"{name}: {e}")
            continue
        for f in (f for files in releases.values() for f in files):
            if f["filename"] == release:
                return urllib.parse.urljoin(api, f["url"])  # a PyPI mirror may answer relative URLs
        errors.append(f"{name}: no file {release} among its releases")
    raise RuntimeError("; ".join(errors))


def sha256_of(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def download(row: Row, sdists: Path) -> Path:
    target = sdists / row.release
    if target.is_file() and sha256_of(target) == row.sha256:
        return target
    sdists.mkdir(parents=True, exist_ok=True)
    part = target.with_name(target.name + ".part")
    with urllib.request.urlopen(pypi_url(row.release), timeout=300) as response, part.open("wb") as out:
        shutil.copyfileobj(response, out)
    if (got := sha256_of(part)) != row.sha256:
        part.unlink()
        raise RuntimeError(f"sha256 mismatch: downloaded {got}, SOURCES.md lists {row.sha256}")
    return part.replace(target)


def safe_extract(tar: tarfile.TarFile, into: Path) -> None:
    """Extract with no absolute paths, no ``..`` and no links leaving ``into``."""
    if hasattr(tarfile, "data_filter"):
        tar.extractall(into, filter="data")
        return
    for member in tar:  # Pythons without extraction filters: plain files and dirs only
        if Path(member.name).is_absolute() or ".." in Path(member.name).parts or not (member.isfile() or member.isdir()):
            raise RuntimeError(f"unsafe or unsupported tar member: {member.name}")
        tar.extract(member, into)


def fresh_tmp(dest: Path) -> Path:
    """An empty scratch folder beside ``dest`` (a leftover from an interrupted run is cleared)."""
    tmp = dest.with_name(f".{dest.name}.part")
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir(parents=True)
    return tmp


def place(tmp: Path, dest: Path, flatten: bool) -> None:
    """Move the unpacked ``tmp`` to ``dest``; with ``flatten``, a single top-level dir is the tree."""
    entries = list(tmp.iterdir())
    source = entries[0] if flatten and len(entries) == 1 and entries[0].is_dir() else tmp
    if dest.exists():
        dest.rmdir()  # empty: non-empty folders were skipped
    source.rename(dest)
    shutil.rmtree(tmp, ignore_errors=True)


def unpack(archive: Path, dest: Path) -> None:
    tmp = fresh_tmp(dest)
    if archive.name.endswith(".tar.gz"):
        with tarfile.open(archive) as tar:
            safe_extract(tar, tmp)
    else:  # .zip sdist or .whl; zipfile itself drops absolute and .. components
        with zipfile.ZipFile(archive) as z:
            z.extractall(tmp)
    place(tmp, dest, flatten=not archive.name.endswith(".whl"))


def git_dir(mirrors: Path | None, repo: str) -> Path | None:
    base = mirrors / repo.replace("/", "+") if mirrors else None
    for d in (base / "repo" / ".git", base / "repo", base, base.with_name(base.name + ".git")) if base else ():
        if (d / "HEAD").is_file() and (d / "objects").is_dir():
            return d
    return None


def absent_blobs(gd: Path, row: Row) -> list[str]:
    """Files of the pinned tree (within the row's paths) whose blobs the mirror lacks."""
    git = ["git", f"--git-dir={gd}"]
    tree = subprocess.run([*git, "ls-tree", "-r", "-z", row.commit, "--", *row.paths], capture_output=True, check=False)
    if tree.returncode:
        raise RuntimeError(f"the mirror {gd} lacks commit {row.commit}: {tree.stderr.decode().strip()}")
    blobs = [e.split(b"\t", 1) for e in tree.stdout.split(b"\0") if e and e.split()[1] == b"blob"]
    query = b"".join(meta.split()[2] + b"\n" for meta, _ in blobs)
    check = subprocess.run([*git, "cat-file", "--batch-check"], input=query, capture_output=True, check=True)
    return [name.decode() for (_, name), out in zip(blobs, check.stdout.splitlines()) if out.endswith(b" missing")]


def archive(row: Row, gd: Path, dest: Path, absent: list[str]) -> None:
    """``git archive`` of the pinned commit (the row's paths, less absent blobs), extracted safely."""
    excludes = [f":(exclude,literal){name}" for name in absent]
    cmd = ["git", f"--git-dir={gd}", "archive", "--format=tar", row.commit, "--", *row.paths, *excludes]
    with tempfile.TemporaryFile(dir=dest.parent) as tarball:
        git = subprocess.run(cmd, stdout=tarball, stderr=subprocess.PIPE, check=False)
        if git.returncode:
            raise RuntimeError(f"git archive failed: {git.stderr.decode(errors='replace').strip()}")
        tarball.seek(0)
        tmp = fresh_tmp(dest)
        with tarfile.open(fileobj=tarball) as tar:
            safe_extract(tar, tmp)
    place(tmp, dest, flatten=False)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("dest", type=Path, help="folder to fill (e.g. /work/checkouts)")
    parser.add_argument("--mirrors", type=Path, help="folder of git mirrors named <owner>+<repo>")
    parser.add_argument("--only", nargs="+", metavar="NAME", help="project folders, label names, PyPI names or owner/repo")
    parser.add_argument("--sources", type=Path, default=SOURCES, help="the SOURCES.md to read (default: beside this script)")
    args = parser.parse_args(argv)
    rows = parse_sources(args.sources)
    if args.only:
        rows = [r for r in rows if set(args.only) & {r.folder, r.label, r.repo, *project_names(r.release or "-")}]
    done, skipped, failed, need_mirror, partial = [], [], [], [], []
    args.dest.mkdir(parents=True, exist_ok=True)
    for row in rows:
        dest = args.dest / row.folder
        if dest.is_dir() and any(dest.iterdir()):
            skipped.append(row.folder)
            continue
        try:
            if row.repo:
                if (gd := git_dir(args.mirrors, row.repo)) is None:
                    need_mirror.append(f"{row.repo} {row.commit} -> {row.folder}")
                    raise RuntimeError(f"no mirror of {row.repo}")
                if absent := absent_blobs(gd, row):
                    partial.append(f"{row.folder}: not in the mirror, left out: {', '.join(absent)}")
                archive(row, gd, dest, absent)
            elif not row.sha256:
                raise RuntimeError("SOURCES.md lists no sha256")
            else:
                unpack(download(row, args.dest / "sdists"), dest)
        except (OSError, ValueError, RuntimeError, subprocess.SubprocessError, tarfile.TarError, zipfile.BadZipFile) as e:
            failed.append(f"{row.folder}: {e}")
            print(f"FAILED {row.folder}: {e}", file=sys.stderr, flush=True)
            continue
        done.append(row.folder)
        print(f"done {row.folder}", flush=True)
    if need_mirror:
        print("\nGitHub rows that need a mirror (--mirrors DIR, DIR/<owner>+<repo>):\n  " + "\n  ".join(need_mirror))
    print(f"\n{len(done)} done, {len(skipped)} skipped (already present), {len(failed)} failed")
    print("".join(f"  partial: {p}\n" for p in partial) + "".join(f"  failed: {f}\n" for f in failed), end="")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
