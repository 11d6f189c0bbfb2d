"""The settings (rocwmma_py.settings): for every one, a use_<name> with-block beats its
ROCWMMA_PY_* variable, which beats the default; blocks nest and stay in their thread,
context and asyncio task; a value a setting does not take raises its error naming the
variable (or the call) and the allowed values; a use_<name> call never entered warns;
the README and the guide list every setting."""

import asyncio
import contextvars
import gc
import inspect
import threading
import warnings
from pathlib import Path

import numpy as np
import pytest

from rocwmma_py import (
    ArchError,
    ConfigError,
    NumericsError,
    SettingNotEnteredWarning,
    WorkerCountError,
    current_settings,
    get_arch,
)
from rocwmma_py import settings as S
from rocwmma_py.runtime.checks import Checks

ROOT = Path(__file__).resolve().parents[1]

# setting: (variable text, its value, a with-block value, a nested with-block value)
CASES = {
    "arch": (" GFX1100 ", get_arch("gfx1100"), get_arch("gfx90a"), get_arch("gfx1201")),
    "engine": ("wave", "wave", "batch", "wave"),
    "workers": (" 3 ", 3, 1, 5),
    "numerics": ("exact", "exact", "silicon", "exact"),
    "batch_lanes": ("64", 64, 128, 256),
    "batch_bytes": ("4096", 4096, 1, 2),
    "progress": ("Yes", True, False, True),
    "initcheck": ("on", True, False, True),
    "synccheck": ("1", True, False, True),
    "racecheck": ("TRUE", True, False, True),
}
# setting: (a variable text it does not take, its error, what the message says is allowed)
REFUSALS = {
    "arch": ("gfx000", ArchError, "valid names are: gfx908, gfx90a"),
    "engine": ("fast", ConfigError, "allowed: 'batch', 'wave'"),
    "workers": ("2.0", WorkerCountError, "give a positive integer"),
    "numerics": ("Exact", NumericsError, "allowed: 'silicon', 'exact'"),  # no case folding
    "batch_lanes": ("-1", ConfigError, "give a positive integer"),
    "batch_bytes": ("1e6", ConfigError, "give a positive integer"),
    "progress": ("sometimes", ConfigError, "use 1 (on) or 0 (off), or one of true/yes/on"),
    "initcheck": ("maybe", ConfigError, "use 1 (on) or 0 (off), or one of true/yes/on"),
    "synccheck": ("2", ConfigError, "use 1 (on) or 0 (off), or one of true/yes/on"),
    "racecheck": ("y", ConfigError, "use 1 (on) or 0 (off), or one of true/yes/on"),
}
SETTINGS = {setting.name: setting for setting in S.SETTINGS}


@pytest.fixture(autouse=True)
def _no_setting_variables(monkeypatch):
    for setting in S.SETTINGS:
        monkeypatch.delenv(setting.env_var, raising=False)


def use(name, value):
    """The public factory of setting `name`."""
    return getattr(S, f"use_{name}")(value)


def test_the_cases_cover_every_setting():
    assert set(CASES) == set(REFUSALS) == set(SETTINGS) == set(current_settings())
    assert len({s.env_var for s in S.SETTINGS}) == len(S.SETTINGS)
    assert all(s.env_var == f"ROCWMMA_PY_{s.name.upper()}" for s in S.SETTINGS)


@pytest.mark.parametrize("name", CASES)
def test_with_block_beats_variable_beats_default(name, monkeypatch):
    setting, (text, from_env, outer, inner) = SETTINGS[name], CASES[name]
    assert setting.lookup() == S.SettingValue(setting.default(), "default")
    monkeypatch.setenv(setting.env_var, text)
    assert setting.lookup() == S.SettingValue(from_env, "env")
    with use(name, outer) as entered:
        assert entered == outer and setting.lookup() == S.SettingValue(outer, "context")
        with use(name, inner):  # innermost wins
            assert current_settings()[name] == S.SettingValue(inner, "context")
        assert setting.get() == outer
    assert setting.lookup() == S.SettingValue(from_env, "env")


def test_defaults():
    assert {name: value.value for name, value in current_settings().items()} == {
        "arch": get_arch("gfx942"), "engine": "batch", "workers": S.default_workers(),
        "numerics": "silicon", "batch_lanes": 32768, "batch_bytes": 256 << 20,
        "progress": False,  # stderr is not a terminal under pytest
        "initcheck": False, "synccheck": False, "racecheck": False}
    assert all(value.source == "default" for value in current_settings().values())


@pytest.mark.parametrize("name", REFUSALS)
def test_a_bad_variable_names_itself_and_the_allowed_values(name, monkeypatch):
    setting, (text, error, allowed) = SETTINGS[name], REFUSALS[name]
    monkeypatch.setenv(setting.env_var, text)
    for read in (setting.get, current_settings):
        with pytest.raises(error) as info:
            read()
        assert str(info.value).startswith(f"${setting.env_var}={text!r}: ")
        assert allowed in str(info.value)
        assert isinstance(info.value, ConfigError) and isinstance(info.value, ValueError)
    with use(name, CASES[name][2]):  # a with-block still wins over the bad variable
        assert setting.lookup().source == "context"


@pytest.mark.parametrize(("name", "value"), [
    ("arch", "sm_90"), ("engine", "Wave"), ("engine", None), ("workers", 0),
    ("workers", True), ("workers", 2.0), ("workers", "2"), ("numerics", "cdna3"),
    ("batch_lanes", -5), ("batch_bytes", 0), ("progress", "on"), ("initcheck", 1),
    ("synccheck", None), ("racecheck", "yes")])
def test_a_bad_with_block_value_raises_at_the_call(name, value):
    error = REFUSALS[name][1]
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # refused at once: nothing left to warn about
        with pytest.raises(error, match=rf"^use_{name}\("):
            use(name, value)
    assert SETTINGS[name].lookup().source == "default"


def test_numbers_take_what_int_indexes_but_not_bools_or_floats():
    with S.use_workers(np.int64(3)) as count:
        assert count == 3 and type(count) is int
    for bad in ("+3", "1_000", "٣", "²"):  # int() takes the first three
        with pytest.raises(ConfigError):
            S.BATCH_LANES.kind.parse(bad)


def test_error_classes_of_the_settings_are_config_errors():
    for error in (ArchError, WorkerCountError, NumericsError):
        assert issubclass(error, ConfigError)
    assert {s.name: s.error for s in S.SETTINGS if s.error is not ConfigError} == {
        "arch": ArchError, "workers": WorkerCountError, "numerics": NumericsError}


# --- never entered ------------------------------------------------------------------------

@pytest.mark.parametrize("name", CASES)
def test_a_call_never_entered_warns(name):
    value = CASES[name][2]
    with pytest.warns(SettingNotEnteredWarning) as record:
        use(name, value)  # the mistake: no `with`
        gc.collect()
    (warning,) = record
    assert str(warning.message) == (f"use_{name}({value!r}) was never entered, so it changed "
                                    f"nothing; use `with use_{name}({value!r}):`")
    assert SETTINGS[name].lookup().source == "default"


def test_the_warning_points_at_the_calling_line():
    with pytest.warns(SettingNotEnteredWarning) as record:
        line = inspect.currentframe().f_lineno + 1
        S.use_engine("wave")
    assert (record[0].filename, record[0].lineno) == (__file__, line)


def test_entered_ones_do_not_warn_and_can_be_entered_again():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        block = S.use_engine("wave")
        with block:
            with block:  # nested: each exit restores what its entry replaced
                assert S.engine_name() == "wave"
            assert S.engine_name() == "wave"
        assert S.engine_name() == "batch"
        with block:
            assert S.engine_name() == "wave"
        del block
        gc.collect()


# --- isolation ----------------------------------------------------------------------------

def test_with_blocks_stay_in_their_thread():
    entered, release, seen = threading.Event(), threading.Event(), []

    def other():
        with S.use_engine("wave"):
            entered.set()
            release.wait(10)
            seen.append(S.engine_name())

    thread = threading.Thread(target=other)
    thread.start()
    entered.wait(10)
    assert S.engine_name() == "batch"  # the other thread's block is not ours
    release.set()
    thread.join()
    assert seen == ["wave"]


def test_with_blocks_stay_in_their_context():
    with S.use_numerics("exact"):
        inside = contextvars.copy_context()
    assert S.NUMERICS.get() == "silicon"
    assert inside.run(S.NUMERICS.get) == "exact"

    def enter_and_leave_open():
        S.use_numerics("exact").__enter__()
        return S.NUMERICS.get()

    assert contextvars.copy_context().run(enter_and_leave_open) == "exact"
    assert S.NUMERICS.get() == "silicon"


def test_with_blocks_stay_in_their_asyncio_task():
    async def run(engine, order):
        with S.use_engine(engine):
            await asyncio.sleep(0)  # the other task runs here, inside its own block
            order.append((engine, S.engine_name()))

    async def both():
        order = []
        await asyncio.gather(run("wave", order), run("batch", order))
        return order

    assert sorted(asyncio.run(both())) == [("batch", "batch"), ("wave", "wave")]


def test_launch_options_beat_the_sanitizer_settings():
    with S.use_initcheck(True), S.use_racecheck(True):
        assert Checks.resolve(None, None) == Checks(True, False, True)
        assert Checks.resolve(False, True, False) == Checks(False, True, False)


# --- documentation ------------------------------------------------------------------------

@pytest.mark.parametrize("page", ["README.md", "docs/guide/kernels.md"])
def test_the_settings_tables_list_every_setting(page):
    rows = [line for line in (ROOT / page).read_text().splitlines() if line.startswith("| ")]
    for setting in S.SETTINGS:
        assert any(f"`use_{setting.name}(" in row and f"`{setting.env_var}`" in row
                   for row in rows), f"{page}: no table row for {setting.name}"
