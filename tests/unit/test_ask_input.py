"""What ``workbench ask`` is given: question files, empty and over-long questions, control bytes.

Bad question files are a typed error naming the file and the line; an empty or over-long
question is refused before the router or retrieval runs; and plain-text output shows terminal
controls as escapes instead of obeying them.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from workbench import cli
from workbench.answers import AnswerCode, answer
from workbench.cli._answers import QuestionFileError, _read_questions
from workbench.config import Settings, load_settings
from workbench.display import inert
from workbench.refusal import falsehood_words


@pytest.fixture
def config(small_index, small_corpus: Path, tmp_path: Path, keyword_config) -> Path:
    """Settings over the small corpus and its keyword index, with the real specs."""
    return keyword_config(tmp_path, small_corpus, index=small_index.folder,
                          extra="[gates]\nthreshold_bi_encoder_terms = 0.2\n"
                                "[answers]\nmax_question_chars = 300\n")


# --- ask --file: each bad file is one typed line naming the file and the line ----------------

QUESTION_FILE_ERRORS: list[tuple[str, bytes | None, str]] = [
    # (case, file content (None: no file), expected fragment after "<path>")
    ("missing file", None, ": no such question file"),
    ("not UTF-8", "первый вопрос\n".encode() + b"caf\xe9 au lait?\n",
     ":2: not UTF-8 text (byte 0xe9 at column 4)"),
    ("windows-1251", "вопрос".encode("cp1251") + b"\n", ":1: not UTF-8 text"),
    ("broken JSONL", b'{"question": "a"}\n\n{"question": "b"\n', ":3: not valid JSON"),
    ("trailing text after JSON", b'{"question": "a"} and more\n', ":1: not valid JSON (Extra data"),
    ("no question field", b'{"question": "a"}\n{"text": "b"}\n',
     ':2: a JSON line needs a "question" field'),
    ("null question", b'{"question": null}\n', ':1: "question" must be a string, got null'),
    ("number question", b'\n\n{"question": 42}\n', ':3: "question" must be a string, got 42'),
    ("list question", b'{"question": ["a", "b"]}\n', ':1: "question" must be a string, got ["a", "b"]'),
    ("object question", b'{"question": {"ru": "a"}}\n', ':1: "question" must be a string, got {'),
]


@pytest.mark.parametrize(("case", "content", "fragment"), QUESTION_FILE_ERRORS,
                         ids=[row[0] for row in QUESTION_FILE_ERRORS])
def test_bad_question_file_is_one_typed_line(config: Path, tmp_path: Path, capsys, case: str,
                                             content: bytes | None, fragment: str) -> None:
    path = tmp_path / "questions.jsonl"
    if content is not None:
        path.write_bytes(content)
    assert cli.main(["ask", "--config", str(config), "--file", str(path)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""  # nothing was asked, not even the good lines before the bad one
    assert captured.err.startswith("workbench: QuestionFileError: ")
    assert f"{path}{fragment}" in captured.err
    assert "Traceback" not in captured.err and captured.err.count("\n") == 1


def test_a_folder_given_as_question_file(config: Path, tmp_path: Path, capsys) -> None:
    assert cli.main(["ask", "--config", str(config), "--file", str(tmp_path)]) == 2
    assert f"QuestionFileError: {tmp_path}: cannot be read" in capsys.readouterr().err


def test_good_question_file_forms(tmp_path: Path) -> None:
    path = tmp_path / "q.txt"
    # a byte order mark, Windows line ends, plain lines and JSONL lines mixed, blank lines
    path.write_bytes("\ufeff{\"question\": \"Что такое UTF-8?\", \"split\": \"dev\"}\r\n"
                     "\r\n  plain question  \r\n{\"question\": \"\"}\n".encode())
    assert _read_questions(path) == ["Что такое UTF-8?", "plain question", ""]
    with pytest.raises(QuestionFileError):
        _read_questions(tmp_path / "none.txt")


# --- empty and over-long questions: refused before the router and retrieval ------------------


class ExplodingRouter:
    """A router that must not be reached."""

    def route(self, question: str):
        raise AssertionError("the router was called")


class ExplodingQuoteSource:
    """A quote source that must not be searched."""

    @property
    def index(self):
        raise AssertionError("the index was opened")

    def ask(self, question: str, lang: str | None = None):
        raise AssertionError("retrieval was called")


class ExplodingGenerator:
    """A mode-B generator that must not be asked."""

    model_id = "never"

    def generate(self, question: str) -> str:
        raise AssertionError("the generator was called")


SETTINGS = Settings().with_overrides(answers={"max_question_chars": 50})

SCREENED: list[tuple[str, str, dict, str]] = [
    # (question, code, numbers, language of the text)
    ("", "QUESTION_EMPTY", {"chars": 0}, "en"),
    ("   \n\t ", "QUESTION_EMPTY", {"chars": 6}, "en"),
    ("x" * 51, "QUESTION_TOO_LONG", {"chars": 51, "limit": 50}, "en"),
    ("ставка НДС " * 20_000, "QUESTION_TOO_LONG", {"chars": 220_000, "limit": 50}, "ru"),
]


@pytest.mark.parametrize(("question", "code", "numbers", "lang"), SCREENED)
def test_refused_before_routing_and_retrieval(question: str, code: str, numbers: dict,
                                              lang: str) -> None:
    result = answer(question, ExplodingRouter(), SETTINGS, allow_mode_b=True,
                    quote_source=ExplodingQuoteSource(), generator=ExplodingGenerator())
    refusal = result.refusal
    assert result.answer is None and refusal is not None
    assert refusal.code == code == AnswerCode(code)
    assert dict(refusal.numbers) == numbers
    assert refusal.area and refusal.text and not falsehood_words(refusal.text)
    if code == "QUESTION_TOO_LONG":
        assert str(numbers["chars"]) in refusal.text and "50" in refusal.text
    assert ("Вопрос" in refusal.text or "вопрос" in refusal.text) == (lang == "ru")
    assert result.trace.steps == (f"input check: {code}",)
    assert result.to_row()["code"] == code


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_screen_texts_in_both_languages(lang: str) -> None:
    for question in ("", "y" * 51):
        refusal = answer(question, ExplodingRouter(), SETTINGS, lang=lang,
                         quote_source=ExplodingQuoteSource()).refusal
        assert refusal is not None and not falsehood_words(refusal.text)
        cyrillic = any("а" <= c <= "я" for c in refusal.text.lower())
        assert cyrillic == (lang == "ru")


def test_a_question_at_the_limit_reaches_the_router(config: Path) -> None:
    from workbench.routing import ScriptedRouter

    settings = load_settings(config).with_overrides(answers={"max_question_chars": 50})
    result = answer("z" * 50, ScriptedRouter(), settings)
    assert result.refusal is not None and result.refusal.code == "NOT_SCRIPTED"


def test_cli_refuses_a_long_question_before_retrieval(config: Path, capsys) -> None:
    assert cli.main(["ask", "--config", str(config), "--json", "Base64 " * 100]) == 0
    out = capsys.readouterr().out
    assert '"code": "QUESTION_TOO_LONG"' in out and '"limit": 300' in out
    assert '"verdicts": []' in out  # no gate ran: nothing was retrieved


# --- plain-text output shows terminal controls as escapes ------------------------------------

INERT_CASES: list[tuple[str, str, str]] = [
    # (text, keep, printed)
    ("clear\x1b[2Jscreen", "", "clear\\x1b[2Jscreen"),
    ("\x1b]0;title\x07", "", "\\x1b]0;title\\x07"),
    ("over\rwrite", "", "over\\rwrite"),
    ("a\x00b\x7fc", "", "a\\x00b\\x7fc"),
    ("c1 \x9b31m and \x85", "", "c1 \\x9b31m and \\x85"),
    ("abc\u202edef\u2066x\u2069\u200f", "", "abc\\u202edef\\u2066x\\u2069\\u200f"),
    ("line\u2028sep\ufeff", "", "line\\u2028sep\\ufeff"),
    ("bad \udcff byte", "", "bad \\udcff byte"),
    ("two\nlines\tand tab", "", "two\\nlines\\tand tab"),
    ("two\nlines\tand tab\r", "\n\t", "two\nlines\tand tab\\r"),
    ("Какая ставка НДС? «ёлка» — 2 × 3 ≤ 7 €", "", "Какая ставка НДС? «ёлка» — 2 × 3 ≤ 7 €"),
    ("already \\x1b escaped", "", "already \\x1b escaped"),
]


@pytest.mark.parametrize(("text", "keep", "printed"), INERT_CASES)
def test_inert(text: str, keep: str, printed: str) -> None:
    assert inert(text, keep=keep) == printed
    assert inert(printed, keep=keep) == printed  # once is enough


HOSTILE = "Какая ставка НДС\x1b[2J применяется при экспорте\r товаров?\u202e\x1b]0;pwned\x07\x9b"
CONTROLS = ("\x1b", "\r", "\u202e", "\x07", "\x9b")


def test_cli_plain_output_is_inert(config: Path, tmp_path: Path, capsys) -> None:
    questions = tmp_path / "q.jsonl"
    questions.write_text('{"question": "Who painted\\u001b[31m the Sistine\\r Chapel?"}\n',
                         encoding="utf-8")
    assert cli.main(["ask", "--config", str(config), "--source", "quote", HOSTILE, "line\none",
                     "--file", str(questions)]) == 0
    out = capsys.readouterr().out
    assert not any(c in out for c in CONTROLS)
    assert "question: Какая ставка НДС\\x1b[2J применяется при экспорте\\r товаров?\\u202e" in out
    assert "question: line\\none\n" in out  # a question keeps to its one line
    assert "question: Who painted\\x1b[31m the Sistine\\r Chapel?" in out
    assert "REFUSAL" in out and "gates (bi-encoder-terms)" in out


def test_cli_error_line_is_inert(config: Path, tmp_path: Path, capsys) -> None:
    path = tmp_path / "q\x1b[2J.jsonl"
    path.write_bytes(b'{"question": null}\n')
    assert cli.main(["ask", "--config", str(config), "--file", str(path)]) == 2
    err = capsys.readouterr().err
    assert "\x1b" not in err and "q\\x1b[2J.jsonl:1:" in err
