"""digit-workbench: instruments for a verifiable-answers assistant.

An answer in verified mode comes from exactly one of three checkable sources: a deterministic
utility, a verbatim quote of a corpus file with an anchor, or a certified conclusion of an
executable specification. Everything else is a refusal with a code and numbers.
"""

import os as _os

# Nothing is ever fetched from a model hub: set before any transformers import can read it.
_os.environ.setdefault("HF_HUB_OFFLINE", "1")
_os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
_os.environ.setdefault("HF_DATASETS_OFFLINE", "1")
_os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

__version__ = "0.1.0"

__all__ = ["__version__"]
