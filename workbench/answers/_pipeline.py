"""One question to one answer: router, source, evidence, and the invariant checker last.

:func:`answer` is the pipeline. Mode A never degrades silently: whatever stops it (the router, a
utility refusal, a quote gate, the FTS gate, an invariant) ends in a refusal, or, only when the
caller passed ``allow_mode_b=True``, in an explicit mode-B answer whose transition note says why
mode A could not answer. Without a configured generator, that transition is itself a refusal
(``MODE_B_UNAVAILABLE``) that keeps the mode-A refusal in its numbers.

:func:`leaky_answer` is the deliberately broken variant that the leakage metric must catch: when
a gate refuses it answers anyway, in mode A, with the best unverified candidate.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from workbench.answers._codes import AnswerCode, answer_message
from workbench.answers._evidence import (
    Answer,
    Evidence,
    Mode,
    QuoteEvidence,
    SpecEvidence,
    UtilityEvidence,
    render_evidence,
)
from workbench.answers._generator import Generator, load_generator
from workbench.answers._invariants import (
    CheckContext,
    InvariantReport,
    check_answer,
    refusal_from_report,
)
from workbench.config import Settings, load_settings
from workbench.corpus import Anchor, detect_lang
from workbench.errors import WorkbenchError
from workbench.fts import FtsError, check_spec, conclude
from workbench.gates import QuoteResult, QuoteSource, Trace
from workbench.refusal import Refusal
from workbench.routing import Router, RouterDecision, Source, screen_question, underived_arguments
from workbench.utilities import call_utility, load_catalog


@dataclass(frozen=True)
class AnswerTrace:
    """Everything that happened to one question, in order."""

    question: str
    """The question."""
    decision: RouterDecision
    """What the router chose."""
    steps: tuple[str, ...]
    """One line per step, in order (route, source, checker, transition)."""
    gates: Trace | None = None
    """The quote gates' trace, when the quote source ran."""
    source_refusal: Refusal | None = None
    """The source's refusal (router, utility, quote gate, FTS), when it refused."""
    report: InvariantReport | None = None
    """The invariant report, when mode-A evidence reached the checker."""
    mode_a_refusal: Refusal | None = None
    """Why mode A did not answer (source or checker), when it did not."""
    leaky: bool = False
    """True for the deliberately leaky variant."""


@dataclass(frozen=True)
class AnswerResult:
    """The pipeline's outcome for one question: an answer or a refusal, and the trace."""

    question: str
    """The question."""
    answer: Answer | None
    """The answer (mode A, or an explicit mode B), when one left."""
    refusal: Refusal | None
    """The refusal, when none did."""
    trace: AnswerTrace
    """What happened, step by step."""

    @property
    def outcome(self) -> Answer | Refusal:
        """The answer or the refusal."""
        return self.answer if self.answer is not None else self.refusal  # type: ignore[return-value]

    @property
    def mode(self) -> str:
        """``A``, ``B``, or empty for a refusal."""
        return str(self.answer.mode) if self.answer is not None else ""

    def describe(self) -> str:
        """What a person reads: the mode (or the refusal), the evidence, the invariant report."""
        lines = [f"question: {self.question}", f"route: {self.trace.decision.source}"]
        if self.answer is None:
            refusal = self.refusal
            lines += [f"refusal: {refusal.code} ({refusal.area})", refusal.text]  # type: ignore[union-attr]
        elif self.answer.mode is Mode.B:
            lines += ["mode B (advisory: generated text, not verified)",
                      f"why not mode A: {self.answer.transition_note}", self.answer.text]
        else:
            lines += ["mode A (verified: every line comes from the evidence)", self.answer.text]
            lines += [f"evidence[{i}]: {json.dumps(e.to_dict(), ensure_ascii=False)[:300]}"
                      for i, e in enumerate(self.answer.evidence)]
        report = self.trace.report
        if report is not None:
            frame = report.to_frame()
            shown = frame.loc[:, (frame != "").any(axis=0)]
            lines += ["invariants:", shown.to_string(index=False)]
        return "\n".join(lines)

    def to_row(self) -> dict[str, Any]:
        """One run-record row: plain columns plus the answer and refusal as JSON."""
        report = self.trace.report
        failure = report.first_failure if report is not None else None
        source_refusal = self.trace.source_refusal
        return {
            "question": self.question,
            "source": str(self.trace.decision.source),
            "mode": self.mode,
            "refused": self.answer is None,
            "code": self.refusal.code if self.refusal is not None else "",
            "source_refusal_code": source_refusal.code if source_refusal is not None else "",
            "invariants_passed": None if report is None else report.passed,
            "failed_invariant": str(failure[1]) if failure is not None else "",
            "answer_json": self.answer.to_json() if self.answer is not None else "",
            "refusal_json": json.dumps(self.refusal.to_dict(), ensure_ascii=False, default=str)
            if self.refusal is not None else "",
            "leaky": self.trace.leaky,
        }


@dataclass
class _Step:
    """The mutable state of one run through the pipeline (private)."""

    steps: list[str] = field(default_factory=list)
    gates: Trace | None = None
    source_refusal: Refusal | None = None
    candidate: Evidence | None = None


@dataclass
class _Routed:
    """One question that passed the input check, with the router's decision (private)."""

    position: int
    question: str
    lang: str
    decision: RouterDecision
    state: _Step


def _quote_evidence(result: QuoteResult, index_digest: str, *, proposed: bool = False
                    ) -> QuoteEvidence | None:
    quote = result.quote if not proposed else result.candidates.quote
    if quote is None:
        return None
    start = quote.fragment.anchor.start + quote.offset
    digest = hashlib.sha256(quote.text.encode("utf-8")).hexdigest()
    anchor = Anchor(path=quote.fragment.anchor.path, start=start, end=start + len(quote.text),
                    sha256=digest)
    return QuoteEvidence(anchor=anchor, text=quote.text, index_digest=index_digest)


def _underived_refusal(decision: RouterDecision, question: str, lang: str) -> Refusal | None:
    """The refusal of a binding with a value that is not the normalisation of a question span.

    A value the router wrote itself would make the utility's verified result an answer to a
    question nobody asked; it never reaches the call.
    """
    underived = underived_arguments(question, decision.args, decision.arg_spans)
    if not underived:
        return None
    first = underived[0]
    shown = str(first.value)[:80]
    if lang == "ru":
        text = (f"Вызов {decision.utility} не выполнен: значение «{shown}» аргумента "
                f"«{first.argument}» не получается ни из одного фрагмента вопроса через "
                "объявленные нормализаторы.")
    else:
        text = (f"The call to {decision.utility} was not made: the value “{shown}” of argument "
                f"“{first.argument}” is not the normalisation of any span of the question.")
    return Refusal(code=str(AnswerCode.ARGUMENT_NOT_IN_QUESTION),
                   area=f"arguments of {decision.utility}, checked against the question",
                   numbers={"utility": decision.utility, "argument": first.argument,
                            "underived": len(underived), "reason": first.reason},
                   text=text)


def _from_utility(decision: RouterDecision, question: str, lang: str, state: _Step
                  ) -> Evidence | Refusal:
    underived = _underived_refusal(decision, question, lang)
    if underived is not None:
        state.steps.append(f"utility {decision.utility}: {underived.code}")
        return underived
    outcome = call_utility(decision.utility, dict(decision.args), question=question, lang=lang)
    if outcome.refusal is not None:
        state.steps.append(f"utility {decision.utility}: {outcome.refusal.code}")
        return outcome.refusal
    state.steps.append(f"utility {decision.utility}: result")
    return UtilityEvidence(utility=outcome.utility, args=dict(outcome.args), result=outcome.result,
                           catalog_digest=load_catalog().digest)


def _open_quote_source(settings: Settings) -> QuoteSource | Refusal:
    """The quote source the settings name, or the refusal that says it could not be opened."""
    try:
        return QuoteSource(settings)
    except (WorkbenchError, OSError) as exc:
        return Refusal(code=str(AnswerCode.QUOTE_SOURCE_UNAVAILABLE),
                       area=f"corpus index {settings.paths.index}",
                       numbers={"error": type(exc).__name__},
                       text=answer_message(AnswerCode.QUOTE_SOURCE_UNAVAILABLE, "en",
                                           index=settings.paths.index))


def _from_quote(result: QuoteResult | Refusal, digest: str, state: _Step) -> Evidence | Refusal:
    """The evidence of one question's quote result (searched with the rest of its batch)."""
    if isinstance(result, Refusal):
        state.steps.append(f"quote source unavailable: {result.numbers['error']}")
        return result
    state.gates = result.trace
    state.candidate = _quote_evidence(result, digest, proposed=True)
    if result.refusal is not None:
        state.steps.append(f"quote gates: {result.refusal.code}")
        return result.refusal
    state.steps.append("quote gates: passed")
    evidence = _quote_evidence(result, digest)
    return evidence if evidence is not None else Refusal(
        code=str(AnswerCode.QUOTE_SOURCE_UNAVAILABLE), area="corpus index",
        text=answer_message(f"{AnswerCode.QUOTE_SOURCE_UNAVAILABLE}:no_quote", result.lang))


def _search_quotes(routed: Sequence[_Routed], quote_source: QuoteSource | None,
                   settings: Settings) -> tuple[list[QuoteResult | Refusal], str]:
    """The quote source's results for every question routed to it, searched as one batch.

    Dense queries are encoded together (:meth:`workbench.gates.QuoteSource.ask_many`); each
    result is the one the question would get alone. Without a ready quote source, one is opened
    from the settings for the batch; when that fails, every question gets its refusal.
    """
    if not routed:
        return [], ""
    opened = quote_source if quote_source is not None else _open_quote_source(settings)
    if isinstance(opened, Refusal):  # each question is told in its own language
        return [replace(opened, text=answer_message(AnswerCode.QUOTE_SOURCE_UNAVAILABLE, r.lang,
                                                    index=settings.paths.index))
                for r in routed], ""
    results = opened.ask_many([r.question for r in routed], [r.lang for r in routed])
    return list(results), opened.index.digest


def _from_spec(decision: RouterDecision, lang: str, context: CheckContext, state: _Step
               ) -> Evidence | Refusal:
    spec_id = str(decision.spec)
    path = context.spec_file(spec_id)
    area = f"specification folder {context.specs_dir}"
    if path is None or context.library_dir is None:
        state.steps.append(f"spec {spec_id}: not found")
        return Refusal(code=str(AnswerCode.UNKNOWN_SPEC), area=area, numbers={"spec": spec_id},
                       text=answer_message(AnswerCode.UNKNOWN_SPEC, lang, spec=spec_id,
                                           folder=context.specs_dir))
    inputs = {str(k): str(v) for k, v in decision.args.items()}
    verdict = check_spec(path, context.library_dir, lang=lang)
    if not verdict.passed or verdict.certificate is None:
        state.steps.append(f"spec {spec_id}: {verdict.code}")
        return verdict.refusal or Refusal(code=str(verdict.code), area=area)
    try:
        conclusion = conclude(verdict, inputs)  # the gate ran once, above
    except (FtsError, ValueError) as exc:
        state.steps.append(f"spec {spec_id}: inputs refused")
        return Refusal(code=str(AnswerCode.BAD_SPEC_INPUT), area=area,
                       numbers={"spec": spec_id, "inputs": sorted(inputs), "error": str(exc)},
                       text=answer_message(AnswerCode.BAD_SPEC_INPUT, lang, spec=spec_id,
                                           inputs=", ".join(sorted(inputs)) or "—", error=exc))
    state.steps.append(f"spec {spec_id}: concludes {conclusion.value}")
    return SpecEvidence(spec_id=spec_id, conclusion=conclusion.value,
                        certificate_digest=conclusion.certificate_digest or "", inputs=inputs,
                        certificate=verdict.certificate.to_dict())


def _router_refusal(decision: RouterDecision, lang: str) -> Refusal:
    if decision.refusal is not None:
        return decision.refusal
    return Refusal(code=str(AnswerCode.ROUTER_REFUSED), area="router",
                   text=answer_message(AnswerCode.ROUTER_REFUSED, lang))


def _generator(settings: Settings, generator: Generator | None) -> Generator | None:
    if generator is not None:
        return generator
    if settings.generator.path is None:
        return None
    return load_generator(str(settings.generator.path), settings.generator.max_new_tokens)


def _transition(question: str, refusal: Refusal, settings: Settings, generator: Generator | None,
                lang: str, state: _Step) -> Answer | Refusal:
    """The explicit step from a mode-A refusal to mode B (only called when B was allowed)."""
    chosen = _generator(settings, generator)
    if chosen is None:
        state.steps.append("mode B allowed but no generator is configured")
        if lang == "ru":
            text = (f"Режим A не дал ответа ({refusal.code}): {refusal.text} Режим B недоступен: "
                    "в настройках не задана локальная языковая модель ([generator].path).")
        else:
            text = (f"Mode A gave no answer ({refusal.code}): {refusal.text} Mode B is unavailable: "
                    "no local language model is configured ([generator].path).")
        return Refusal(code=str(AnswerCode.MODE_B_UNAVAILABLE), area=refusal.area,
                       numbers={"mode_a_code": refusal.code, **dict(refusal.numbers)}, text=text)
    note = f"Mode A could not answer: {refusal.code}. {refusal.text}".strip()
    state.steps.append(f"transition to mode B ({chosen.model_id}): {refusal.code}")
    return Answer(mode=Mode.B, text=chosen.generate(question), evidence=(), transition_note=note)


def _screened(question: str, settings: Settings, lang: str | None, leaky: bool
              ) -> AnswerResult | None:
    """The final refusal of an empty or over-long question, before the router and retrieval."""
    screened = screen_question(question, settings.answers.max_question_chars, lang)
    if screened is None:
        return None
    # final: mode B would hand the same question to a generator
    decision = RouterDecision(source=Source.REFUSE, refusal=screened)
    trace = AnswerTrace(question=question, decision=decision,
                        steps=(f"input check: {screened.code}",), source_refusal=screened,
                        mode_a_refusal=screened, leaky=leaky)
    return AnswerResult(question, None, screened, trace)


def _finish(routed: _Routed, produced: Evidence | Refusal, settings: Settings, *,
            allow_mode_b: bool, generator: Generator | None, context: CheckContext,
            leaky: bool) -> AnswerResult:
    """The checker (or the leak), then the optional mode-B transition, for one question."""
    question, lang, decision, state = routed.question, routed.lang, routed.decision, routed.state
    report: InvariantReport | None = None
    outcome: Answer | Refusal
    if isinstance(produced, Refusal):
        state.source_refusal = produced
        if leaky and state.candidate is not None:
            state.steps.append("leaky: answering anyway with the best unverified candidate")
            evidence = (state.candidate,)
            outcome = Answer(Mode.A, render_evidence(evidence), evidence)
        else:
            outcome = produced
    else:
        evidence = (produced,)
        candidate = Answer(Mode.A, render_evidence(evidence), evidence)
        if leaky:  # the leaky variant skips the checker altogether
            state.steps.append("leaky: the invariant checker was skipped")
            outcome = candidate
        else:
            report = check_answer(candidate, context)
            failure = report.first_failure
            state.steps.append("invariants: " + ("all hold" if failure is None
                                                  else f"{failure[1]} failed"))
            outcome = candidate if failure is None else refusal_from_report(report, lang)
    mode_a_refusal = outcome if isinstance(outcome, Refusal) else None
    if mode_a_refusal is not None and allow_mode_b:
        outcome = _transition(question, mode_a_refusal, settings, generator, lang, state)
    trace = AnswerTrace(question=question, decision=decision, steps=tuple(state.steps),
                        gates=state.gates, source_refusal=state.source_refusal, report=report,
                        mode_a_refusal=mode_a_refusal, leaky=leaky)
    if isinstance(outcome, Answer):
        return AnswerResult(question, outcome, None, trace)
    return AnswerResult(question, None, outcome, trace)


def _run(questions: Sequence[str], router: Router, settings: Settings, *, allow_mode_b: bool,
         quote_source: QuoteSource | None, generator: Generator | None,
         context: CheckContext | None, lang: str | None, leaky: bool) -> list[AnswerResult]:
    """The pipeline over a batch; each result is the one its question would get alone.

    Each question is screened and routed in turn, the quote source searches the questions
    routed to it together, then each question's evidence goes to the checker in turn.
    """
    results: list[AnswerResult | None] = [None] * len(questions)
    routed: list[_Routed] = []
    for position, question in enumerate(questions):
        results[position] = _screened(question, settings, lang, leaky)
        if results[position] is not None:
            continue
        state = _Step()
        decision = router.route(question)
        state.steps.append(f"route: {decision.source}")
        routed.append(_Routed(position, question, lang or detect_lang(question), decision, state))
    if not routed:
        return [r for r in results if r is not None]
    if context is None:
        if quote_source is not None:
            context = CheckContext.for_index(quote_source.index, quote_source.corpus, settings)
        else:
            context = CheckContext.from_settings(settings)
    quoted = [r for r in routed if r.decision.source is Source.QUOTE]
    searched, digest = _search_quotes(quoted, quote_source, settings)
    quote_results = {r.position: found for r, found in zip(quoted, searched, strict=True)}
    for item in routed:
        decision, state = item.decision, item.state
        produced: Evidence | Refusal
        if decision.source is Source.UTILITY:
            produced = _from_utility(decision, item.question, item.lang, state)
        elif decision.source is Source.QUOTE:
            produced = _from_quote(quote_results[item.position], digest, state)
        elif decision.source is Source.SPEC:
            produced = _from_spec(decision, item.lang, context, state)
        else:
            produced = _router_refusal(decision, item.lang)
            state.steps.append(f"router refused: {produced.code}")
        results[item.position] = _finish(item, produced, settings, allow_mode_b=allow_mode_b,
                                         generator=generator, context=context, leaky=leaky)
    return [r for r in results if r is not None]


def answer(question: str, router: Router, settings: Settings | None = None, *,
           allow_mode_b: bool = False, quote_source: QuoteSource | None = None,
           generator: Generator | None = None, context: CheckContext | None = None,
           lang: str | None = None) -> AnswerResult:
    """Answer ``question``: route it, let the chosen source produce evidence, check it last.

    Args:
        question: The question.
        router: Chooses the source (see :mod:`workbench.routing`).
        settings: Paths, gates and the generator; :func:`workbench.config.load_settings` if omitted.
        allow_mode_b: Whether a mode-A refusal may turn into an explicit mode-B answer.
        quote_source: A ready quote source (else one is opened from the settings on demand).
        generator: A mode-B generator (else the one the settings configure, if any).
        context: What the invariant checker resolves against (else built from the settings or
            the quote source's index).
        lang: ``ru`` or ``en`` for refusal texts (else detected from the question).

    Returns:
        An :class:`AnswerResult`: the answer or the refusal, with the full trace. An empty
        question, one longer than ``[answers].max_question_chars``, one mostly in another script
        or one crowded with figures is refused before the router runs (``QUESTION_EMPTY``,
        ``QUESTION_TOO_LONG``, ``QUESTION_SCRIPT``, ``QUESTION_TOO_MANY_VALUES``), and never goes
        on to mode B.
    """
    return answer_many([question], router, settings, allow_mode_b=allow_mode_b,
                       quote_source=quote_source, generator=generator, context=context,
                       lang=lang)[0]


def answer_many(questions: Sequence[str], router: Router, settings: Settings | None = None, *,
                allow_mode_b: bool = False, quote_source: QuoteSource | None = None,
                generator: Generator | None = None, context: CheckContext | None = None,
                lang: str | None = None) -> list[AnswerResult]:
    """Answer several questions as one batch; each gets exactly what :func:`answer` gives it.

    The questions are screened and routed one by one, the ones routed to the quote source are
    searched together (their dense queries encoded in one call, which is most of the time a
    quote question costs), then each one's evidence meets the checker. The arguments are those
    of :func:`answer`; the results are in the order of ``questions``.
    """
    return _run(questions, router, settings or load_settings(), allow_mode_b=allow_mode_b,
                quote_source=quote_source, generator=generator, context=context, lang=lang,
                leaky=False)


def leaky_answer(question: str, router: Router, settings: Settings | None = None, *,
                 quote_source: QuoteSource | None = None, context: CheckContext | None = None,
                 lang: str | None = None) -> AnswerResult:
    """The deliberately leaky pipeline: never ship it; it exists so leakage can be seen.

    When a gate refuses it answers anyway in mode A with the best unverified candidate, and it
    never runs the invariant checker.
    """
    return _run([question], router, settings or load_settings(), allow_mode_b=False,
                quote_source=quote_source, generator=None, context=context, lang=lang,
                leaky=True)[0]


def answer_rows(results: list[AnswerResult]) -> list[Mapping[str, Any]]:
    """Run-record rows of several results."""
    return [r.to_row() for r in results]
