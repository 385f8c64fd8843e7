"""``[plugins] modules``: a stage of one's own, registered in a module the settings name.

The module is imported when the settings load, from the settings file's folder first, before
any name is checked, so the rule it registers is usable by name from the command line, a
notebook's setup and anything else that reads the settings. A missing or failing module is a
``ConfigError`` naming the module and the file; loading twice registers nothing twice.
"""

from __future__ import annotations

import sys
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from workbench import cli, registry
from workbench.config import ConfigError, load_settings

PLUGIN = '''
from workbench.registry import relevance_rule
from workbench.relevance import RuleVerdict


@relevance_rule("{rule}", applies_to="quote")
def digits():
    def rule(question, fragment_text, lang, scope):
        wanted = [c for c in question if c.isdigit()]
        return RuleVerdict("{rule}", any(c not in fragment_text for c in wanted))

    return rule
'''


class Plugin:
    """A settings file and a plugin module beside it, with names no other test uses."""

    def __init__(self, folder: Path) -> None:
        tag = uuid.uuid4().hex[:8]
        self.folder = folder
        self.module = f"stages_{tag}"
        self.rule = f"digits-{tag}"
        self.config = folder / "workbench.toml"

    def write(self, modules: list[str] | None = None, body: str | None = None) -> Path:
        (self.folder / f"{self.module}.py").write_text(
            body if body is not None else PLUGIN.format(rule=self.rule), encoding="utf-8")
        names = ", ".join(f'"{m}"' for m in (modules if modules is not None else [self.module]))
        plugins = f"[plugins]\nmodules = [{names}]\n\n" if names else ""
        self.config.write_text(
            f'{plugins}[gates]\nrelevance_rules = ["entities", "{self.rule}"]\n', encoding="utf-8")
        return self.config


@pytest.fixture
def plugin(tmp_path: Path, monkeypatch) -> Iterator[Plugin]:
    folder = tmp_path / "project"
    folder.mkdir()
    monkeypatch.setattr(sys, "path", list(sys.path))  # the settings folder joins it; put it back
    monkeypatch.setattr(sys, "dont_write_bytecode", True)
    own = Plugin(folder)
    with registry.restoring():
        yield own
    sys.modules.pop(own.module, None)


def test_a_rule_named_only_in_the_settings_loads_from_its_plugin_module(plugin) -> None:
    settings = load_settings(plugin.write())
    assert plugin.rule in settings.gates.relevance_rules
    assert plugin.rule in registry.names("relevance_rule")
    assert settings.plugins.modules == (plugin.module,)
    assert settings.to_dict()["plugins"] == {"modules": [plugin.module]}  # in every run record


def test_without_the_plugin_the_rule_is_unknown(plugin) -> None:
    with pytest.raises(ConfigError, match=f"unknown relevance rule '{plugin.rule}'"):
        load_settings(plugin.write(modules=[]))


def test_loading_twice_registers_once_and_does_not_fail(plugin) -> None:
    load_settings(plugin.write())
    module = sys.modules[plugin.module]
    entry = registry.lookup("relevance_rule", plugin.rule)
    load_settings(plugin.config)
    assert sys.modules[plugin.module] is module  # not run again
    assert registry.lookup("relevance_rule", plugin.rule) is entry
    assert registry.names("relevance_rule").count(plugin.rule) == 1


def test_a_missing_plugin_names_the_module_and_the_file(plugin) -> None:
    path = plugin.write(modules=["no_such_stages_module"])
    with pytest.raises(ConfigError) as caught:
        load_settings(path)
    message = str(caught.value)
    assert "'no_such_stages_module'" in message and str(path.resolve()) in message
    assert "not found" in message


def test_a_plugin_that_raises_names_the_module_the_file_and_the_error(plugin) -> None:
    path = plugin.write(body="raise RuntimeError('half-written stage')\n")
    with pytest.raises(ConfigError) as caught:
        load_settings(path)
    message = str(caught.value)
    assert f"'{plugin.module}'" in message and str(path.resolve()) in message
    assert "RuntimeError: half-written stage" in message
    # a missing import inside the plugin is the plugin raising, not the plugin missing
    path = plugin.write(body="import a_dependency_nobody_installed\n")
    with pytest.raises(ConfigError, match="raised on import: ModuleNotFoundError"):
        load_settings(path)


def test_the_settings_folder_comes_before_sys_path(plugin, tmp_path: Path, monkeypatch) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / f"{plugin.module}.py").write_text("raise RuntimeError('the wrong one')\n",
                                                   encoding="utf-8")
    monkeypatch.syspath_prepend(str(elsewhere))
    settings = load_settings(plugin.write())
    assert plugin.rule in settings.gates.relevance_rules
    assert Path(sys.modules[plugin.module].__file__).parent == plugin.folder.resolve()


def test_a_module_of_that_name_loaded_from_elsewhere_is_an_error(plugin, tmp_path: Path,
                                                                 monkeypatch) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / f"{plugin.module}.py").write_text("X = 1\n", encoding="utf-8")
    monkeypatch.syspath_prepend(str(elsewhere))
    __import__(plugin.module)
    with pytest.raises(ConfigError, match="already loaded from"):
        load_settings(plugin.write())


def test_every_verb_and_the_lab_see_the_plugin_rule(plugin, capsys) -> None:
    from workbench.lab import setup

    path = plugin.write()
    # the verb stops at the missing index: the settings, plugin rule and all, loaded first
    assert cli.main(["--config", str(path), "index", "info"]) == 2
    err = capsys.readouterr().err
    assert "unknown relevance rule" not in err and "ConfigError" not in err
    lab = setup(path, index=False)
    assert plugin.rule in lab.settings.gates.relevance_rules


def test_an_override_imports_its_plugin_from_sys_path(plugin, monkeypatch) -> None:
    from workbench.config import Settings

    plugin.write()
    monkeypatch.syspath_prepend(str(plugin.folder))
    settings = Settings().with_overrides(plugins={"modules": [plugin.module]},
                                         gates={"relevance_rules": ["entities", plugin.rule]})
    assert plugin.rule in settings.gates.relevance_rules
    with pytest.raises(ConfigError, match="'no_such_stages_module' was not found in sys.path"):
        Settings().with_overrides(plugins={"modules": ["no_such_stages_module"]})
