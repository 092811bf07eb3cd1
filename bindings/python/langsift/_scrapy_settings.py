"""langsift.scrapy's settings: the LANGSIFT_* settings read and checked (LangsiftSettings; an
unknown name or a bad value is a ValueError naming the setting), the model they name, and the
frontier they configure."""

from __future__ import annotations

import difflib
import math
import os
from dataclasses import dataclass, field
from typing import Any, Mapping, Optional

from . import Frontier, LangsiftError, Model, to_iso639_1

#: A wanted language without a quota gets this target: never met.
UNLIMITED = 2**62


@dataclass(frozen=True)
class LangsiftSettings:
    """The LANGSIFT_* settings, checked (see the module docstring for their meaning)."""

    languages: tuple[str, ...] = ()
    quotas: Mapping[str, int] = field(default_factory=dict)
    min_priority: float = 0.0
    close_on_quotas: bool = True
    url_classifier: bool = True
    min_url_score: float = 0.3
    url_weight: float = 2.0
    vote_prior: float = 1.0
    unknown_priority: float = 0.1
    min_vote_percent: int = 20
    min_url_guess: float = 0.3
    skip_unwanted: bool = False
    max_urls: int = 0
    priority_scale: int = 1000
    item_field: Optional[str] = None
    main_content: bool = False
    model: Optional[str] = None

    @property
    def focused(self) -> bool:
        """True when some language is wanted: the crawl is steered (else pages are only annotated)."""
        return bool(self.languages)

    @classmethod
    def from_settings(cls, settings: Any) -> "LangsiftSettings":
        """Reads and checks the LANGSIFT_* settings of a Scrapy `Settings` (or a plain mapping).

        Raises ValueError naming the setting for a bad value or an unknown LANGSIFT_* name."""
        _check_names(settings)
        model = _string(settings, "LANGSIFT_MODEL")
        known = _known_languages(model)
        languages = [_code(c, "LANGSIFT_LANGUAGES", known) for c in _code_list(settings, "LANGSIFT_LANGUAGES")]
        quotas = _quotas(settings, known)
        # A quota implies the language is wanted.
        for code in quotas:
            if code not in languages:
                languages.append(code)
        return cls(
            languages=tuple(dict.fromkeys(languages)),
            quotas=quotas,
            min_priority=_number(settings, "LANGSIFT_MIN_PRIORITY", 0.0, 0.0, 1.0),
            close_on_quotas=_flag(settings, "LANGSIFT_CLOSE_ON_QUOTAS", True),
            url_classifier=_flag(settings, "LANGSIFT_URL_CLASSIFIER", True),
            min_url_score=_number(settings, "LANGSIFT_MIN_URL_SCORE", 0.3, 0.0, 1.0),
            url_weight=_number(settings, "LANGSIFT_URL_WEIGHT", 2.0, 0.0, 1e6),
            vote_prior=_number(settings, "LANGSIFT_VOTE_PRIOR", 1.0, 0.0, 1e6),
            unknown_priority=_number(settings, "LANGSIFT_UNKNOWN_PRIORITY", 0.1, 0.0, 1.0),
            min_vote_percent=_whole(settings, "LANGSIFT_MIN_VOTE_PERCENT", 20, 0, 100),
            min_url_guess=_number(settings, "LANGSIFT_MIN_URL_GUESS", 0.3, 0.0, 1e6),
            skip_unwanted=_flag(settings, "LANGSIFT_SKIP_UNWANTED", False),
            max_urls=_whole(settings, "LANGSIFT_MAX_URLS", 0, 0, 2**62),
            priority_scale=_whole(settings, "LANGSIFT_PRIORITY_SCALE", 1000, 1, 10**9),
            item_field=_string(settings, "LANGSIFT_ITEM_FIELD"),
            main_content=_flag(settings, "LANGSIFT_MAIN_CONTENT", False),
            model=model,
        )

    def new_frontier(self) -> Frontier:
        """A Frontier with these options, a quota for every wanted language."""
        f = Frontier(
            min_vote_percent=self.min_vote_percent, url_weight=self.url_weight, vote_prior=self.vote_prior,
            min_url_guess=self.min_url_guess, unknown_priority=self.unknown_priority, skip_saturated=True,
            skip_unwanted=self.skip_unwanted, max_urls=self.max_urls)
        for code in self.languages:
            f.set_quota(code, self.quotas.get(code, UNLIMITED))
        return f


KNOWN_SETTINGS = frozenset(
    "LANGSIFT_" + n for n in (
        "ENABLED LANGUAGES QUOTAS MIN_PRIORITY CLOSE_ON_QUOTAS URL_CLASSIFIER MIN_URL_SCORE URL_WEIGHT VOTE_PRIOR "
        "UNKNOWN_PRIORITY MIN_VOTE_PERCENT MIN_URL_GUESS SKIP_UNWANTED MAX_URLS PRIORITY_SCALE ITEM_FIELD "
        "MAIN_CONTENT MODEL").split())


def _check_names(settings: Any) -> None:
    for name in list(settings):
        if isinstance(name, str) and name.startswith("LANGSIFT_") and name not in KNOWN_SETTINGS:
            close = difflib.get_close_matches(name, sorted(KNOWN_SETTINGS), n=1)
            hint = (f" (did you mean {close[0]}?)" if close
                    else f"; langsift.scrapy knows {', '.join(sorted(KNOWN_SETTINGS))}")
            raise ValueError(f"unknown setting {name}{hint}")


def _get(settings: Any, name: str) -> Any:
    return settings.get(name)


def _flag(settings: Any, name: str, default: bool) -> bool:
    v = _get(settings, name)
    if v is None:
        return default
    if isinstance(v, bool):
        return v
    if isinstance(v, int) and v in (0, 1):
        return bool(v)
    if isinstance(v, str) and v.strip().lower() in ("1", "true", "yes", "on", "0", "false", "no", "off"):
        return v.strip().lower() in ("1", "true", "yes", "on")
    raise ValueError(f"{name} must be True or False, not {v!r}")


def _number(settings: Any, name: str, default: float, lo: float, hi: float) -> float:
    v = _get(settings, name)
    if v is None:
        return default
    try:
        if isinstance(v, bool):
            raise TypeError
        x = float(v)
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be a number in {lo:g}..{hi:g}, not {v!r}") from None
    if not (math.isfinite(x) and lo <= x <= hi):
        raise ValueError(f"{name} must be a number in {lo:g}..{hi:g}, not {v!r}")
    return x


def _whole(settings: Any, name: str, default: int, lo: int, hi: int) -> int:
    v = _get(settings, name)
    if v is None:
        return default
    n = _whole_value(v)
    if n is None or not lo <= n <= hi:
        raise ValueError(f"{name} must be a whole number in {lo}..{hi}, not {v!r}")
    return n


def _whole_value(v: Any) -> Optional[int]:
    """An int from an int, an integral float or a decimal string; None otherwise."""
    if isinstance(v, bool):
        return None
    if isinstance(v, int):
        return v
    if isinstance(v, float) and v.is_integer():
        return int(v)
    if isinstance(v, str) and v.strip().lstrip("+").isdigit():
        return int(v.strip())
    return None


def _string(settings: Any, name: str) -> Optional[str]:
    v = _get(settings, name)
    if v is None or v == "":
        return None
    if not isinstance(v, (str, os.PathLike)):
        raise ValueError(f"{name} must be a string, not {v!r}")
    return os.fspath(v)


def _code_list(settings: Any, name: str) -> list[Any]:
    v = _get(settings, name)
    if v is None:
        return []
    if isinstance(v, str):  # from the command line: -s LANGSIFT_LANGUAGES=de,fr
        return [c for c in v.replace(",", " ").split() if c]
    if isinstance(v, (list, tuple, set, frozenset)):
        return list(v)
    raise ValueError(f"{name} must be a list of language codes such as ['de', 'fr'], not {v!r}")


def _known_languages(model_path: Optional[str]) -> frozenset[str]:
    return frozenset(_load_model(model_path).languages)


_models: dict[Optional[str], Model] = {}


def _load_model(path: Optional[str]) -> Model:
    """The built-in model, or a model file (loaded once per process)."""
    if path not in _models:
        if path is None:
            _models[path] = Model.builtin()
        else:
            try:  # a built-in model's name ("wide") wins over a file so named, as everywhere
                _models[path] = Model.named(path)
            except (OSError, LangsiftError) as e:
                raise ValueError(f"LANGSIFT_MODEL: cannot load {path!r}: {e}") from e
    return _models[path]


def _code(c: Any, name: str, known: frozenset[str]) -> str:
    """A language code as the model writes it (ISO 639-1 where one exists), or ValueError."""
    if not isinstance(c, str) or not c.strip():
        raise ValueError(f"{name}: {c!r} is not a language code (ISO 639-1 or 639-3, e.g. 'de' or 'deu')")
    raw = c.strip()
    for candidate in (raw, raw.replace("_", "-").split("-")[0]):
        code = to_iso639_1(candidate)
        if code in known:
            return code
    raise ValueError(f"{name}: {raw!r} is not a language the model knows (ISO 639-1 or 639-3 codes, "
                     f"e.g. 'de' or 'deu'; langsift.languages() lists them)")


def _quotas(settings: Any, known: frozenset[str]) -> dict[str, int]:
    name = "LANGSIFT_QUOTAS"
    raw = _get(settings, name)
    if raw is None or raw == "" or raw == {}:
        return {}
    if isinstance(raw, str):
        try:
            raw = settings.getdict(name)  # JSON from the command line
        except (ValueError, AttributeError):
            raise ValueError(f'{name} must be a mapping such as {{"de": 1000}}, not {raw!r}') from None
    if not isinstance(raw, Mapping) and not hasattr(raw, "items"):
        raise ValueError(f'{name} must be a mapping such as {{"de": 1000}}, not {raw!r}')
    out: dict[str, int] = {}
    for k, v in dict(raw).items():
        code = _code(k, name, known)
        n = _whole_value(v)
        if n is None or n < 1:
            raise ValueError(f"{name}[{k!r}] must be a whole number of pages >= 1, not {v!r}")
        out[code] = n
    return out
