"""The transformers router: any local causal-LM folder turned into a :class:`RouterDecision`.

Two prompt formats, chosen by name from :data:`PROMPT_FORMATS`:

``"two-stage"`` (for chat models such as a local Qwen/Qwen3-1.7B)
    Stage one shows the compact category index and asks for one word: a category id, or
    ``quote``, ``spec`` or ``refuse``. Stage two shows only what that word needs (the schemas of
    that one category, or the shape of a quote, spec or refusal decision) and asks for the
    decision as one JSON object. The whole catalog is never put in a prompt.
``"compact"`` (for the small routers trained here)
    One stage: ``Q: <question>`` then ``A:`` and the decision as one JSON object, exactly the
    format :func:`workbench.routing._train.train_router` trains on (see :func:`compact_prompt`
    and :func:`decision_target`).

The chat template is used when the tokenizer has one, else a plain prompt. Decoding is greedy
with a cap on new tokens; a router built with ``constrained=True`` (``NAME+constrained`` in
:func:`~workbench.routing.build_router`) decodes under :class:`~workbench.routing._constrain.CopyConstraint`,
so it can only write a decision of the expected shape whose ids are known and whose argument
values are copied from the question (each prompt format says which grammar each stage writes).

An output with no JSON decision in it, or with a decision that names no known source or lacks
what its source needs, becomes a refuse decision whose code is
:data:`~workbench.routing._score.PARSE_FAILURE_CODE`, which scoring counts as a parse failure and
never as a refusal. Every decision carries the raw output and the prompt and output token counts.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from workbench.errors import WorkbenchError
from workbench.refusal import Refusal
from workbench.registry import router
from workbench.routing._constrain import (
    DEFAULT_TOP_K,
    ChoiceGrammar,
    CopyConstraint,
    Grammar,
    TokenTable,
    decision_grammar,
)
from workbench.routing._records import RouterDecision, RouterDecisionError, Source
from workbench.routing._score import PARSE_FAILURE_CODE
from workbench.routing._screen import screened
from workbench.utilities import Catalog, category_index, describe_category

DEFAULT_MAX_NEW_TOKENS = 128
TRAINING_RECORD = "workbench_training.json"
"""The file a folder trained here carries; its presence selects the ``compact`` format.

The trainer writes it last, so a folder without it is still being trained (or was abandoned)."""
REFUSAL_CODES = ("OUT_OF_SCOPE", "MISSING_ARGUMENT", "ARGUMENT_IS_CIRCUMSTANCE")
_OTHER_SOURCES = ("quote", "spec", "refuse")
_THINK = re.compile(r"<think>.*?(</think>|$)", re.DOTALL)

SYSTEM_STAGE_ONE = (
    "You route a user's question to a source. Utility categories (id: what it covers (count)):\n"
    "{index}\n"
    "Other sources: quote (a verbatim quote from the course corpus), spec (a certified "
    "specification), refuse (nothing fits, or the question lacks the data it needs).\n"
    "Reply with exactly one word: a category id, quote, spec or refuse."
)
SYSTEM_STAGE_TWO = (
    "You route a user's question. {what}\n"
    "Reply with exactly one JSON object and nothing else: {shape}. Copy argument values from the "
    "question exactly; never invent a value the question does not contain — refuse instead with "
    'a code from: {codes}, as {{"source": "refuse", "refusal": CODE}}.'
)


class TransformersRouterError(WorkbenchError, ValueError):
    """A model folder that cannot be loaded, or a prompt format that does not exist."""


# ---------------------------------------------------------------------------------------------
# The trained format and the parser


def compact_prompt(question: str) -> str:
    """The one-stage prompt of the routers trained here.

    It ends at ``A:`` with no trailing space: a byte-level BPE merges the space with the ``{`` that
    opens the decision, so a prompt ending in a bare space would show the model a token it never
    saw in that place and it would go on writing a question instead of a decision.
    """
    return f"Q: {question.strip()}\nA:"


def training_text(question: str, gold: Mapping[str, Any]) -> str:
    """One training line: the compact prompt, a space and the gold decision's JSON.

    The tokenised :func:`compact_prompt` is a prefix of the tokenised line, which is what lets the
    trained model continue a prompt exactly as it saw it in training.
    """
    return f"{compact_prompt(question)} {decision_target(gold)}"


def decision_target(gold: Mapping[str, Any]) -> str:
    """The JSON object a router should emit for a gold decision (compact, keys in a fixed order).

    Args:
        gold: A gold decision as in ``router_tasks.jsonl``.

    Returns:
        ``{"source": ..., "utility"/"spec": ..., "args": {...}}``, ``{"source": "quote"}`` or
        ``{"source": "refuse", "refusal": CODE}``, as one line of JSON.
    """
    source = str(gold["source"])
    out: dict[str, Any] = {"source": source}
    if source == "refuse":
        out["refusal"] = gold.get("refusal") or "OUT_OF_SCOPE"
    elif source in ("utility", "spec"):
        out[source] = gold[source]
        out["args"] = dict(gold.get("args") or {})
    return json.dumps(out, ensure_ascii=False, separators=(",", ":"))


def _first_json_object(text: str) -> dict[str, Any] | None:
    decoder = json.JSONDecoder()
    for match in re.finditer(r"\{", text):
        try:
            value, _ = decoder.raw_decode(text, match.start())
        except json.JSONDecodeError:
            continue
        if isinstance(value, dict) and "source" in value:
            return value
    return None


def parse_failure(raw_output: str, reason: str, prompt_tokens: int = 0, output_tokens: int = 0,
                  category: str | None = None) -> RouterDecision:
    """The decision that records an output the router could not parse."""
    refusal = Refusal(code=PARSE_FAILURE_CODE, area="transformers router output",
                      numbers={"output_chars": len(raw_output)},
                      text=f"The router's output could not be read as a decision: {reason}.")
    return RouterDecision(source=Source.REFUSE, category=category, refusal=refusal,
                          raw_output=raw_output, prompt_tokens=prompt_tokens,
                          output_tokens=output_tokens)


def parse_decision(raw_output: str, prompt_tokens: int = 0, output_tokens: int = 0,
                   category: str | None = None) -> RouterDecision:
    """Read the first JSON decision in a model's output; anything else is a parse failure.

    Args:
        raw_output: The text the model generated (text around the JSON object is ignored).
        prompt_tokens: Tokens the model read, recorded on the decision.
        output_tokens: Tokens the model wrote, recorded on the decision.
        category: The category chosen in an earlier stage, when there was one.

    Returns:
        The decision; a refuse decision with code ``PARSE_FAILURE`` when no object with a known
        source and what that source needs is found.
    """
    counts = {"prompt_tokens": prompt_tokens, "output_tokens": output_tokens}
    cleaned = _THINK.sub("", raw_output)
    data = _first_json_object(cleaned)
    if data is None:
        return parse_failure(raw_output, "no JSON object with a source", category=category, **counts)
    args = data.get("args") or {}
    if not isinstance(args, dict):
        return parse_failure(raw_output, "args is not an object", category=category, **counts)
    refusal = None
    if str(data.get("source")) == "refuse":
        code = data.get("refusal")
        if not isinstance(code, str) or not code.strip() or code == PARSE_FAILURE_CODE:
            return parse_failure(raw_output, "a refusal without a code", category=category, **counts)
        refusal = Refusal(code=code.strip(), area="transformers router",
                          text=f"The router refused the question ({code.strip()}).")
    utility = data.get("utility") if isinstance(data.get("utility"), str) else None
    spec = data.get("spec") if isinstance(data.get("spec"), str) else None
    chosen = category or (utility.split(".", 1)[0] if utility and "." in utility else None)
    try:
        return RouterDecision(source=data["source"], category=chosen, utility=utility, spec=spec,
                              args=args, refusal=refusal, raw_output=raw_output,
                              prompt_tokens=counts.get("prompt_tokens", 0),
                              output_tokens=counts.get("output_tokens", 0))
    except RouterDecisionError as exc:
        return parse_failure(raw_output, str(exc), category=category, **counts)


# ---------------------------------------------------------------------------------------------
# Prompt formats


@dataclass(frozen=True)
class _Generated:
    text: str
    prompt_tokens: int
    output_tokens: int


Generate = Callable[[str, str, Callable[[], Grammar]], _Generated]
"""``(system, user, grammar) -> generated text and token counts``; the model behind the router.

``grammar`` builds what the stage may write; a constrained router decodes under it, an
unconstrained one never calls it."""


def _index_text(catalog: Catalog | None) -> str:
    if catalog is None:
        return category_index()
    return "\n".join(f"{c.id}: {c.en} | {c.ru} ({len(catalog.in_category(c.id))})"
                     for c in catalog.categories)


def _category_schemas(catalog: Catalog | None, category: str) -> list[dict[str, Any]]:
    if catalog is None:
        return describe_category(category)
    return [s.describe("en") for s in catalog.in_category(category)]


def _category_ids(catalog: Catalog | None) -> list[str]:
    if catalog is None:
        return [line.split(":", 1)[0] for line in category_index().splitlines()]
    return [c.id for c in catalog.categories]


def _route_compact(question: str, generate: Generate, catalog: Catalog | None) -> RouterDecision:
    out = generate("", compact_prompt(question),
                   lambda: decision_grammar(question, REFUSAL_CODES, catalog))
    return parse_decision(out.text, out.prompt_tokens, out.output_tokens)


def _route_two_stage(question: str, generate: Generate, catalog: Catalog | None) -> RouterDecision:
    codes = ", ".join(REFUSAL_CODES)
    known = _category_ids(catalog)
    first = generate(SYSTEM_STAGE_ONE.format(index=_index_text(catalog)), question,
                     lambda: ChoiceGrammar((*known, *_OTHER_SOURCES)))
    prompt_tokens, output_tokens = first.prompt_tokens, first.output_tokens
    words = re.findall(r"[a-z_]+", _THINK.sub("", first.text).casefold())
    choice = next((w for w in words if w in known or w in _OTHER_SOURCES), None)
    if choice is None:
        return parse_failure(first.text, "stage one named no category or source",
                             prompt_tokens, output_tokens)
    if choice == "quote":
        return RouterDecision(source=Source.QUOTE, raw_output=first.text,
                              prompt_tokens=prompt_tokens, output_tokens=output_tokens)
    if choice in known:
        schemas = json.dumps(_category_schemas(catalog, choice), ensure_ascii=False)
        what = f"The question belongs to the utility category {choice!r}; its utilities:\n{schemas}\n"
        shape = '{"source": "utility", "utility": ID, "args": {NAME: VALUE, ...}}'
    elif choice == "spec":
        what = "The question asks to evaluate a certified specification."
        shape = '{"source": "spec", "spec": ID, "args": {NAME: VALUE, ...}}'
    else:
        what = "No source seems to fit the question."
        shape = '{"source": "refuse", "refusal": CODE}'
    source = "utility" if choice in known else choice
    second = generate(SYSTEM_STAGE_TWO.format(what=what, shape=shape, codes=codes), question,
                      lambda: decision_grammar(question, REFUSAL_CODES, catalog,
                                               sources=tuple(dict.fromkeys((source, "refuse"))),
                                               category=choice if choice in known else None))
    raw = f"{first.text}\n---\n{second.text}"
    return parse_decision(raw, prompt_tokens + second.prompt_tokens,
                          output_tokens + second.output_tokens,
                          category=choice if choice in known else None)


PromptFormat = Callable[[str, Generate, Catalog | None], RouterDecision]
PROMPT_FORMATS: dict[str, PromptFormat] = {
    "two-stage": _route_two_stage,
    "compact": _route_compact,
}
"""Prompt format name -> the function that routes one question with a model."""


# ---------------------------------------------------------------------------------------------
# The router


def load_tokenizer(path: str | Path) -> Any:
    """Load a folder's tokenizer so that its ids match training exactly.

    ``AutoTokenizer`` may pick a model-specific class for a small local folder that re-splits
    digits; ``PreTrainedTokenizerFast`` reads ``tokenizer.json`` as it was saved.
    """
    from transformers import PreTrainedTokenizerFast

    try:
        return PreTrainedTokenizerFast.from_pretrained(str(path))
    except (OSError, ValueError) as exc:
        raise TransformersRouterError(f"cannot load a tokenizer from {path}: {exc}") from None


class TransformersRouter:
    """Route with a local causal language model (greedy decoding, a cap on new tokens).

    Args:
        path: A folder with a causal LM and its ``tokenizer.json`` (one trained here, or e.g. a
            local copy of Qwen/Qwen3-1.7B).
        catalog: The utility catalog whose index and schemas are shown (the loaded one by default).
        prompt_format: A name from :data:`PROMPT_FORMATS`; ``None`` picks ``"compact"`` for a
            folder trained here (it has ``workbench_training.json``) and ``"two-stage"`` otherwise.
        max_new_tokens: The cap on generated tokens per stage.
        constrained: Decode under :class:`~workbench.routing._constrain.CopyConstraint`: only
            decisions of the expected shape, with known ids and argument values copied from the
            question, can be written.
        top_k: The constraint's number of best tokens checked at each step before the whole
            vocabulary.
    """

    def __init__(self, path: str | Path, catalog: Catalog | None = None, prompt_format: str | None = None,
                 max_new_tokens: int = DEFAULT_MAX_NEW_TOKENS, constrained: bool = False,
                 top_k: int = DEFAULT_TOP_K) -> None:
        import torch
        from transformers import AutoModelForCausalLM

        self.path = Path(path)
        if not self.path.is_dir():
            raise TransformersRouterError(f"no model folder at {self.path}")
        if prompt_format is None:
            prompt_format = "compact" if (self.path / TRAINING_RECORD).is_file() else "two-stage"
        if prompt_format not in PROMPT_FORMATS:
            raise TransformersRouterError(
                f"unknown prompt format {prompt_format!r}; known: {', '.join(PROMPT_FORMATS)}")
        self.prompt_format = prompt_format
        self.catalog = catalog
        self.max_new_tokens = max_new_tokens
        self.tokenizer = load_tokenizer(self.path)
        self.constrained = constrained
        self.top_k = top_k
        self.tokens = TokenTable.of(self.tokenizer) if constrained else None
        try:
            self.model = AutoModelForCausalLM.from_pretrained(str(self.path), dtype=torch.float32)
        except (OSError, ValueError) as exc:
            raise TransformersRouterError(f"cannot load a causal LM from {self.path}: {exc}") from None
        self.model.eval()

    def _prompt_ids(self, system: str, user: str) -> list[int]:
        tok = self.tokenizer
        if getattr(tok, "chat_template", None):
            messages = ([{"role": "system", "content": system}] if system else []) + [
                {"role": "user", "content": user}]
            text = tok.apply_chat_template(messages, tokenize=False, add_generation_prompt=True,
                                           enable_thinking=False)
        else:
            text = f"{system}\n\n{user}" if system else user
        ids = list(tok.encode(text, add_special_tokens=False))
        if self.prompt_format == "compact" and tok.eos_token_id is not None:
            # In training every line follows the end-of-text token of the line before it.
            ids.insert(0, int(tok.eos_token_id))
        return ids

    def _generate(self, system: str, user: str, grammar: Callable[[], Grammar]) -> _Generated:
        import torch
        from transformers import LogitsProcessorList

        ids = self._prompt_ids(system, user)
        tok = self.tokenizer
        eos = tok.eos_token_id
        pad = tok.pad_token_id if tok.pad_token_id is not None else eos
        inputs = torch.tensor([ids], dtype=torch.long)
        processors = LogitsProcessorList()
        if self.tokens is not None:
            processors.append(CopyConstraint(self.tokens, grammar(), len(ids), self.top_k))
        with torch.no_grad():
            output = self.model.generate(inputs, attention_mask=torch.ones_like(inputs), do_sample=False,
                                         max_new_tokens=self.max_new_tokens, eos_token_id=eos,
                                         pad_token_id=pad, logits_processor=processors)
        new = [int(t) for t in output[0, len(ids):]]
        if eos is not None and new and new[-1] == eos:
            new = new[:-1]
        text = tok.decode(new, skip_special_tokens=True)
        return _Generated(text=text, prompt_tokens=len(ids), output_tokens=len(new))

    def route(self, question: str) -> RouterDecision:
        """Decide where ``question`` goes with the model and the router's prompt format."""
        screen = screened(question)
        if screen is not None:
            return screen
        return PROMPT_FORMATS[self.prompt_format](question, self._generate, self.catalog)


def trained_routers(models_dir: str | Path) -> dict[str, Path]:
    """Router folders under ``models_dir/routers`` whose training finished, by folder name.

    A folder counts once it holds :data:`TRAINING_RECORD`; one still in training is left out.
    """
    root = Path(models_dir) / "routers"
    if not root.is_dir():
        return {}
    return {folder.name: folder for folder in sorted(root.iterdir())
            if folder.is_dir() and (folder / TRAINING_RECORD).is_file()}


@router("transformers")
def transformers_router(path: str, catalog: Catalog | None = None, prompt_format: str | None = None,
                        max_new_tokens: int = DEFAULT_MAX_NEW_TOKENS, constrained: bool = False,
                        top_k: int = DEFAULT_TOP_K) -> TransformersRouter:
    """Build a :class:`TransformersRouter` for the model folder ``path``."""
    return TransformersRouter(path, catalog=catalog, prompt_format=prompt_format,
                              max_new_tokens=max_new_tokens, constrained=constrained, top_k=top_k)
