"""A project of one's own, walked through the installed ``workbench`` command from its folder.

``init`` into a fresh folder, a corpus of three small pages and a dozen labelled questions of
both splits, then ``index build``, ``eval gates``, ``gates calibrate``, ``ask`` (a quote with
its anchor), ``compare`` (a rule of the project's ``stages.py`` switched on) and ``report``, each run with
the project folder as the current folder, so every verb finds the project's settings by itself.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

WORKBENCH = shutil.which("workbench") or str(Path(sys.executable).with_name("workbench"))

PAGES = {
    "apt.md": "# Установка пакетов\n\nПакеты Debian устанавливают командой apt install, "
              "указав имя пакета. Перед установкой список пакетов обновляют командой apt update."
              "\n\nУдалить пакет вместе с его файлами настройки можно командой apt purge.\n",
    "users.md": "# Пользователи\n\nНового пользователя добавляют командой adduser, она "
                "спрашивает пароль и создаёт домашний каталог.\n\nЧтобы дать пользователю "
                "права администратора, его добавляют в группу sudo.\n",
    "network.md": "# Сеть\n\nНастройки сетевых интерфейсов Debian хранятся в файле "
                  "/etc/network/interfaces.\n\nИмя компьютера записано в файле /etc/hostname.\n",
}

ANSWERABLE = [
    ("Какой командой устанавливают пакеты Debian?", "apt.md", "командой apt install"),
    ("Как обновить список пакетов перед установкой?", "apt.md", "командой apt update"),
    ("Как удалить пакет вместе с файлами настройки?", "apt.md", "командой apt purge"),
    ("Какой командой добавляют нового пользователя?", "users.md", "командой adduser"),
    ("В какую группу добавить пользователя, чтобы дать права администратора?", "users.md",
     "в группу sudo"),
    ("В каком файле хранятся настройки сетевых интерфейсов?", "network.md",
     "/etc/network/interfaces"),
    ("В каком файле записано имя компьютера?", "network.md", "/etc/hostname"),
]
UNANSWERABLE = [
    "Как настроить принтер в Debian?",
    "Какой пароль у пользователя root по умолчанию?",
    "Как установить драйвер видеокарты NVIDIA?",
    "Сколько стоит подписка на Debian?",
    "Как сменить раскладку клавиатуры?",
]


def _run(folder: Path, *args: str, ok: bool = True) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "WORKBENCH_CONFIG"}
    env["HF_HUB_OFFLINE"] = "1"
    done = subprocess.run([WORKBENCH, *args], cwd=folder, env=env, capture_output=True,
                          text=True, timeout=120)
    if ok:
        assert done.returncode == 0, f"workbench {' '.join(args)}:\n{done.stdout}\n{done.stderr}"
    return done


def _write_project(folder: Path) -> None:
    (folder / "corpus" / "example.md").unlink()
    for name, text in PAGES.items():
        (folder / "corpus" / name).write_text(text, encoding="utf-8")
    lines: dict[str, list[dict]] = {"in_corpus": [], "out_of_corpus": [], "relevance_traps": []}
    for number, (question, path, span) in enumerate(ANSWERABLE):
        lines["in_corpus"].append({"id": f"ic-{number}", "set": "in_corpus", "question": question,
                                   "lang": "ru", "split": ("dev", "test")[number % 2],
                                   "gold": [{"path": path, "span": span}]})
    for number, question in enumerate(UNANSWERABLE):
        lines["out_of_corpus"].append({"id": f"oc-{number}", "set": "out_of_corpus",
                                       "question": question, "lang": "ru",
                                       "split": ("dev", "test")[number % 2],
                                       "why": "the guide does not say"})
    for name, items in lines.items():
        (folder / "questions" / f"{name}.jsonl").write_text(
            "".join(json.dumps(item, ensure_ascii=False) + "\n" for item in items),
            encoding="utf-8")


def test_own_project_walks_the_loop(tmp_path):
    folder = tmp_path / "guide"
    _run(tmp_path, "init", str(folder))
    _write_project(folder)

    built = _run(folder, "index", "build", "--quiet")
    assert str(folder / ".cache" / "index" / "guide") in built.stdout
    assert (folder / ".cache" / "index" / "guide" / "manifest.json").is_file()

    gates = _run(folder, "eval", "gates", "--quiet")
    assert "run record:" in gates.stdout
    assert str(folder / "results") in gates.stdout

    calibrated = _run(folder, "gates", "calibrate", "--quiet", "--min-per-kind", "1",
                      "--out", "calibration.toml")
    assert (folder / "calibration.toml").is_file(), calibrated.stdout

    asked = _run(folder, "ask", "--json", "Какой командой устанавливают пакеты Debian?")
    line = json.loads(asked.stdout.strip().splitlines()[-1])
    assert line["route"]["source"] == "quote"
    assert line["decision"] == "answer", line
    anchor = line["evidence"][0]["anchor"]
    assert anchor["path"] == "apt.md"
    text = (folder / "corpus" / "apt.md").read_text(encoding="utf-8")
    assert "apt install" in text[anchor["start"]:anchor["end"]]

    refused = _run(folder, "ask", "Как настроить принтер в Debian?")
    assert "router: quote-only" in refused.stdout
    assert "REFUSAL" in refused.stdout and "MISSING_ARGUMENT" not in refused.stdout

    compared = _run(folder, "compare", "current", "project-numbers")
    assert "project-numbers" in compared.stdout

    reported = _run(folder, "report")
    assert (folder / "results" / "report.html").is_file(), reported.stdout


if not shutil.which("workbench") and not Path(sys.executable).with_name("workbench").exists():
    pytestmark = pytest.mark.skip(reason="the workbench command is not installed")
