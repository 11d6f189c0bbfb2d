"""What a kernel can change besides memory: Python state the engines do not see.

The per-wave engine runs kernel code once per wave, the batched engine once per batch (and
again after a rerun), so Python state that kernel code changes — a `global` counter, a
module or function attribute, a list it appends to, a random generator it draws from, an
iterator it advances — would change once per wave on one and once per batch on the other.
Such launches run on the per-wave engine, blocks in order (`engine.run`'s `per_wave`), and
`last_launch_stats()` names the object. Host numpy arrays the kernel reaches (other than its
pointer arguments) are guarded instead: read-only while undoable code runs
(`state.guard_host_arrays`), so a write fails, is undone and reruns wave by wave.

The rule is read from the code, not from a list of types. The kernel's bytecode (and that of
the Python functions it calls or reaches, followed through globals, closures, defaults,
attributes and arguments) is interpreted abstractly, tracking which values come from outside
the kernel's locals (`code_facts`); what the code does with them is then checked against the
objects they are at launch (`kernel_state`). A launch runs per wave when kernel code

* rebinds a global (`global n; n += 1`) or a closure variable (`nonlocal`);
* assigns or deletes an attribute or item of an object it reaches (`mod.count += 1`,
  `fn.calls = 0`, `state['n'] = 1`, `obj.x = 1`, `buf[0] ^= 1`), or changes one in place
  (`items += [x]`);
* calls a method of a reached object that is not immutable (`log.append`, `rng.random`,
  `queue.popleft`), calls a bound method of such an object reached directly
  (`random.random`, `np.random.rand`: methods of a hidden generator), or calls a callable
  object that keeps state;
* hands such an object to code it cannot read (C functions and types: `next(it)`,
  `len(items)`, `heapq.heappush(h, x)`), or iterates an object that is its own iterator.

A launch whose code may enter the debugger (`breakpoint()`, `pdb.set_trace()`,
`sys.breakpointhook()`) runs per wave too, with the cause "breakpoint": the debugger then
stops once per wave and shows that wave's values.

Objects are judged by what they are: immutable values (None, numbers, strings, bytes, numpy
scalars and dtypes, tuples and frozensets of values, objects hashable by value that refuse
attribute assignment, enum members), classes and modules as namespaces (attributes read, not
written), Python functions (analysed), this package's objects and numpy's functions (trusted:
the API keeps its own state per wave), numpy arrays (guarded). Anything else — an object
with mutable state, one hashed by identity, one the analysis cannot name — counts as mutable
Python state when the code may change it. Values returned by calls are taken as new objects.
"""

from __future__ import annotations

import builtins
import dis
import enum
import functools
import importlib.util
import inspect
import sys
import types
from collections.abc import Callable, Iterable
from typing import Any

import numpy as np

_E: frozenset = frozenset()
_NULL = frozenset({("null",)})  # the NULL a call's callable slot may hold
_MAX_STEPS = 6  # attribute/item steps kept on a path; deeper ones become unknown
_MAX_ORIGINS = 24  # origins kept for one local or cell; more are widened (`_widen`)
_MAX_ITEMS = 256  # container items looked at when resolving an item of a reached container
_MAX_DEPTH = 24  # nested calls followed from the kernel
_MAX_ROUNDS = 24  # passes over a code unit until the locals' origins settle
_TRUSTED = ("rocwmma_py", "numpy", "ml_dtypes")
_V313 = sys.version_info >= (3, 13)
_JUMPS = frozenset(dis.hasjrel) | frozenset(dis.hasjabs) | frozenset(getattr(dis, "hasjump", ()))
_UNCONDITIONAL = frozenset({"JUMP_FORWARD", "JUMP_BACKWARD", "JUMP_ABSOLUTE", "JUMP",
                            "JUMP_NO_INTERRUPT", "JUMP_BACKWARD_NO_INTERRUPT"})
_TERMINAL = frozenset({"RETURN_VALUE", "RETURN_CONST", "RAISE_VARARGS", "RERAISE"})
_BUILDS = frozenset({"BUILD_TUPLE", "BUILD_LIST", "BUILD_SET"})
_ADDS = frozenset({"LIST_APPEND", "SET_ADD", "LIST_EXTEND", "SET_UPDATE", "DICT_UPDATE",
                   "DICT_MERGE"})
_INPLACE = {op: f"__i{name}__" for op, name in (
    ("+=", "add"), ("-=", "sub"), ("*=", "mul"), ("/=", "truediv"), ("//=", "floordiv"),
    ("%=", "mod"), ("**=", "pow"), ("<<=", "lshift"), (">>=", "rshift"), ("&=", "and"),
    ("|=", "or"), ("^=", "xor"), ("@=", "matmul"))}  # BINARY_OP's in-place forms
_INPLACE.update({f"INPLACE_{op}": f"__i{name}__" for op, name in (  # Python 3.10
    ("ADD", "add"), ("SUBTRACT", "sub"), ("MULTIPLY", "mul"), ("TRUE_DIVIDE", "truediv"),
    ("FLOOR_DIVIDE", "floordiv"), ("MODULO", "mod"), ("POWER", "pow"), ("LSHIFT", "lshift"),
    ("RSHIFT", "rshift"), ("AND", "and"), ("OR", "or"), ("XOR", "xor"),
    ("MATRIX_MULTIPLY", "matmul"))})
_TO_VALUE: dict[str, int] = {  # operands popped (-1: the argument), a new value pushed
    "UNARY_POSITIVE": 1, "UNARY_NEGATIVE": 1, "UNARY_NOT": 1, "UNARY_INVERT": 1,
    "COMPARE_OP": 2, "IS_OP": 2, "CONTAINS_OP": 2, "TO_BOOL": 1, "FORMAT_SIMPLE": 1,
    "FORMAT_WITH_SPEC": 2, "CONVERT_VALUE": 1, "BUILD_STRING": -1, "BUILD_SLICE": -1}


# -- code facts: what a code object does with values from outside its locals ----------------
#
# A path names such a value: (root, *steps), root ("g", name) a global or builtin, ("f", name)
# a free variable of the unit's function, ("p", name) its parameter, ("m", name, level, top)
# an import; steps ("a", name) an attribute, ("i",) an item, ("it",) an iterator over it,
# ("?",) something deeper. A stack slot holds a frozenset of paths and markers:
# ("meth", path, name) a method loaded for a call, ("code", code) a function made here,
# ("box", item) a container made here holding item (a path or a box), ("null",) the NULL
# of a call's callable slot, ("k", constant) a constant the interpreter needs (keyword
# names, code, None, ints).

def _is_path(item: tuple) -> bool:
    return isinstance(item[0], tuple)


def _paths(items: Iterable[tuple]) -> list[tuple]:
    return [p for p in items if _is_path(p)]


def _extend(items: frozenset, step: tuple) -> frozenset:
    out = set()
    for p in items:
        if _is_path(p):
            deep = len(p) > _MAX_STEPS or p[-1] == ("?",)  # "?" absorbs further steps
            out.add(p[:-1] + (("?",),) if deep else p + (step,))
    return frozenset(out)


def _widen(items: frozenset) -> frozenset:
    """Too many origins for one value (`x = x.parent` in a loop): keep each root, the
    steps after it unknown."""
    if len(items) <= _MAX_ORIGINS:
        return items

    def wide(x: tuple) -> tuple:
        if _is_path(x):
            return (x[0], ("?",))
        return ("box", wide(x[1])) if x[0] == "box" else x

    return frozenset(wide(x) for x in items)


def _box(items: frozenset) -> frozenset:
    """A container made here holding these values: ("box", value), nested at most thrice."""
    return frozenset(("box", x) for x in items if _is_path(x) or x[0] == "box" and (
        x[1][0] != "box" or x[1][1][0] != "box"))


def _item(items: frozenset) -> frozenset:
    """An item of these values: of a reached object (a path step), or of a container made
    here (what it holds)."""
    return _extend(items, ("i",)) | frozenset(x[1] for x in items if x[0] == "box")


class _Unit:
    """A code object and the code nested in it (functions, lambdas, comprehensions, class
    bodies), interpreted together: nested code shares its enclosing code's cells, and a
    nested function called here gets the caller's argument origins for its parameters."""

    def __init__(self, root: types.CodeType) -> None:
        self.root = root
        self.codes: list[types.CodeType] = []
        self.derefs: dict[types.CodeType, dict[str, tuple]] = {}
        self._collect(root, {})
        self.locals: dict[tuple, frozenset] = {}
        self.cells: dict[tuple, frozenset] = {}
        self.events = _Sites()
        self.readers: dict[tuple, set[tuple]] = {}  # a local or cell -> (code, i) loading it
        self.changed = False  # another pass needed: what code already passed read changed
        self._flowing: tuple = ()  # (code, states, work) of the pass under way
        for name in _parameters(root):
            self._bind(root, name, frozenset({(("p", name),)}))

    def _collect(self, code: types.CodeType, outer: dict[str, tuple]) -> None:
        mapping = {name: outer.get(name, ("free",)) for name in code.co_freevars}
        mapping.update({name: ("cell", code) for name in code.co_cellvars})
        self.codes.append(code)
        self.derefs[code] = mapping
        for const in code.co_consts:
            if isinstance(const, types.CodeType):
                self._collect(const, mapping)

    def run(self) -> list[tuple]:
        """[(event, only on the way to an exception, inside a try or with block)]."""
        for _ in range(_MAX_ROUNDS):
            self.changed = False
            for code in self.codes:
                self._flow(code)
            if not self.changed:
                break
        raising = _must_raise(self.root)
        covered = _covered(self.root)
        return [(event, all(c is self.root and i in raising for c, i in sites),
                 any(c is not self.root or i in covered for c, i in sites))
                for event, sites in self.events.items()]

    # -- state shared by every pass -------------------------------------------------------

    def _union(self, table: dict, key: tuple, items: frozenset) -> None:
        """Add origins to a local or cell; the instructions that loaded it are revisited
        (in this pass when they are this code's, else in another pass)."""
        old = table.get(key, _E)
        if items <= old:
            return
        table[key] = _widen(old | items)
        if table[key] == old:
            return
        current, states, work = self._flowing or (None, {}, [])
        for code, i in self.readers.get((table is self.cells, *key), ()):
            if code is current and i in states:
                work.append(i)
            else:
                self.changed = True

    def _read(self, table: dict, key: tuple) -> frozenset:
        self.readers.setdefault((table is self.cells, *key), set()).add(self.events.site)
        return table.get(key, _E)

    def _bind(self, code: types.CodeType, name: str, items: frozenset) -> None:
        self._union(self.locals, (code, name), items)
        if name in code.co_cellvars:
            self._union(self.cells, (code, name), items)

    def _load_deref(self, code: types.CodeType, name: str) -> frozenset:
        where = self.derefs[code].get(name, ("free",))
        if where[0] == "free":
            path = (("f", name),)
            self.events.add(("load", path))
            return frozenset({path})
        return self._read(self.cells, (where[1], name))

    def _store_deref(self, code: types.CodeType, name: str, items: frozenset) -> None:
        where = self.derefs[code].get(name, ("free",))
        if where[0] == "free":
            self.events.add(("rebind", "closure", name))
        else:
            self._union(self.cells, (where[1], name), items)

    # -- one pass over one code object: stacks of origins at every instruction ------------

    def _flow(self, code: types.CodeType) -> None:
        instrs, index, handlers = _instructions(code)
        states: dict[int, tuple] = {0: ()}
        work = [0]
        self._flowing = (code, states, work)
        while work:
            i = work.pop()
            stack = states[i]
            for target, depth, lasti in handlers[i]:
                entry = stack[:depth] + ((_E,) if lasti else ()) + (_E,)
                self._merge(states, work, index[target], entry)
            ins = instrs[i]
            self.events.site = (code, i)
            fall, jump = self._step(code, instrs, i, list(stack))
            if fall is not None and i + 1 < len(instrs):
                self._merge(states, work, i + 1, tuple(fall))
            if jump is not None and ins.argval in index:
                self._merge(states, work, index[ins.argval], tuple(jump))

    @staticmethod
    def _merge(states: dict, work: list, i: int, stack: tuple) -> None:
        old = states.get(i)
        if old is None:
            states[i] = stack
            work.append(i)
            return
        if len(old) != len(stack):  # cannot happen in compiled code; keep the known depth
            stack = (stack + (_E,) * len(old))[:len(old)]
        new = tuple(a | b for a, b in zip(old, stack, strict=True))
        if new != old:
            states[i] = new
            work.append(i)

    def _step(self, code: types.CodeType, instrs: list, i: int,
              st: list) -> tuple[list | None, list | None]:
        """(stack after falling through, stack at the jump target) of instruction i."""
        ins = instrs[i]
        name = ins.opname
        jump = None
        if ins.opcode in _JUMPS:
            jump = _generic(st, ins, jump=True)
            if name in _UNCONDITIONAL:
                return None, jump
        if name in _TERMINAL:
            return None, None
        stack_before = tuple(st)
        handler = getattr(self, "_op_" + name, None)
        try:
            self._effect(handler, code, instrs, i, st)
        except IndexError:  # a stack the model got wrong: keep the depth dis gives
            st = _generic(list(stack_before), ins, jump=False)
        return st, jump

    def _effect(self, handler: Callable | None, code: types.CodeType, instrs: list, i: int,
                st: list) -> None:
        ins = instrs[i]
        name, arg = ins.opname, ins.arg
        if handler is not None:
            handler(code, instrs, i, st)
        elif name in _BUILDS:
            st.append(_box(_union(_pop(st, arg))))
        elif name in _ADDS:
            value = st.pop()
            st[-arg] = st[-arg] | _box(value if name in ("LIST_APPEND", "SET_ADD")
                                       else _item(value))
        elif name in _TO_VALUE:
            _pop(st, arg if _TO_VALUE[name] < 0 else _TO_VALUE[name])
            st.append(_E)
        elif name.startswith(("BINARY_", "INPLACE_")) and name not in ("BINARY_SUBSCR",
                                                                         "BINARY_SLICE"):
            right, left = st.pop(), st.pop()
            dunder = _INPLACE.get(ins.argrepr if name == "BINARY_OP" else name)
            if dunder is not None:
                self.events.update(("inplace", p, dunder) for p in _paths(left))
                st.append(left)
            else:
                st.append(_E)
            del right
        else:
            st[:] = _generic(st, ins, jump=False)

    # -- loads and stores ---------------------------------------------------------------

    def _op_LOAD_CONST(self, code, instrs, i, st):  # noqa: N802 - opcode names
        value = instrs[i].argval
        keep = value is None or isinstance(value, (types.CodeType, int)) or (
            isinstance(value, tuple) and all(isinstance(v, str) for v in value))
        st.append(frozenset({("k", value)}) if keep else _E)

    def _op_LOAD_FAST(self, code, instrs, i, st):  # noqa: N802
        st.append(self._read(self.locals, (code, instrs[i].argval)))

    _op_LOAD_FAST_CHECK = _op_LOAD_FAST
    _op_LOAD_FAST_AND_CLEAR = _op_LOAD_FAST

    def _op_LOAD_FAST_LOAD_FAST(self, code, instrs, i, st):  # noqa: N802
        for name in instrs[i].argval:
            st.append(self._read(self.locals, (code, name)))

    def _op_STORE_FAST(self, code, instrs, i, st):  # noqa: N802
        self._bind(code, instrs[i].argval, st.pop())

    def _op_STORE_FAST_STORE_FAST(self, code, instrs, i, st):  # noqa: N802
        for name in instrs[i].argval:
            self._bind(code, name, st.pop())

    def _op_STORE_FAST_LOAD_FAST(self, code, instrs, i, st):  # noqa: N802
        store, load = instrs[i].argval
        self._bind(code, store, st.pop())
        st.append(self._read(self.locals, (code, load)))

    def _op_LOAD_GLOBAL(self, code, instrs, i, st):  # noqa: N802
        path = (("g", instrs[i].argval),)
        self.events.add(("load", path))
        null = sys.version_info >= (3, 11) and instrs[i].arg & 1
        if null and not _V313:
            st.append(_NULL)
        st.append(frozenset({path}))
        if null and _V313:
            st.append(_NULL)

    def _op_PUSH_NULL(self, code, instrs, i, st):  # noqa: N802
        st.append(_NULL)

    def _op_LOAD_NAME(self, code, instrs, i, st):  # noqa: N802
        path = (("g", instrs[i].argval),)
        self.events.add(("load", path))
        st.append(frozenset({path}))

    def _op_LOAD_FROM_DICT_OR_GLOBALS(self, code, instrs, i, st):  # noqa: N802
        st.pop()
        self._op_LOAD_NAME(code, instrs, i, st)

    def _op_STORE_GLOBAL(self, code, instrs, i, st):  # noqa: N802
        st.pop()
        self.events.add(("rebind", "global", instrs[i].argval))

    def _op_DELETE_GLOBAL(self, code, instrs, i, st):  # noqa: N802
        self.events.add(("rebind", "global", instrs[i].argval))

    def _op_LOAD_DEREF(self, code, instrs, i, st):  # noqa: N802
        st.append(self._load_deref(code, instrs[i].argval))

    _op_LOAD_CLASSDEREF = _op_LOAD_DEREF

    def _op_LOAD_FROM_DICT_OR_DEREF(self, code, instrs, i, st):  # noqa: N802
        st.pop()
        self._op_LOAD_DEREF(code, instrs, i, st)

    def _op_STORE_DEREF(self, code, instrs, i, st):  # noqa: N802
        self._store_deref(code, instrs[i].argval, st.pop())

    def _op_DELETE_DEREF(self, code, instrs, i, st):  # noqa: N802
        self._store_deref(code, instrs[i].argval, _E)

    def _op_LOAD_ATTR(self, code, instrs, i, st):  # noqa: N802
        obj, name = st.pop(), instrs[i].argval
        if sys.version_info >= (3, 12) and instrs[i].arg & 1:
            self._push_method(st, obj, name)
            return
        items = _extend(obj, ("a", name))
        self.events.update(("load", p) for p in items)
        st.append(items)

    def _op_LOAD_METHOD(self, code, instrs, i, st):  # noqa: N802
        self._push_method(st, st.pop(), instrs[i].argval)

    @staticmethod
    def _push_method(st: list, obj: frozenset, name: str) -> None:
        st.append(frozenset(("meth", p, name) for p in _paths(obj)))
        st.append(obj)

    def _op_LOAD_SUPER_ATTR(self, code, instrs, i, st):  # noqa: N802
        _pop(st, 3)
        st.extend([_E] * (2 if instrs[i].arg & 1 else 1))

    def _op_STORE_ATTR(self, code, instrs, i, st):  # noqa: N802
        obj = st.pop()
        st.pop()
        self._store(obj, ("a", instrs[i].argval))

    def _op_DELETE_ATTR(self, code, instrs, i, st):  # noqa: N802
        self._store(st.pop(), ("a", instrs[i].argval))

    def _op_STORE_SUBSCR(self, code, instrs, i, st):  # noqa: N802
        _, container, _ = st.pop(), st.pop(), st.pop()
        self._store(container, ("i",))

    def _op_DELETE_SUBSCR(self, code, instrs, i, st):  # noqa: N802
        _, container = st.pop(), st.pop()
        self._store(container, ("i",))

    def _op_STORE_SLICE(self, code, instrs, i, st):  # noqa: N802
        _, _, container, _ = st.pop(), st.pop(), st.pop(), st.pop()
        self._store(container, ("i",))

    def _store(self, obj: frozenset, step: tuple) -> None:
        self.events.update(("store", p, step) for p in _paths(obj))

    def _op_BINARY_SUBSCR(self, code, instrs, i, st):  # noqa: N802
        st.pop()
        items = _item(st.pop())
        self.events.update(("load", p) for p in _paths(items))
        st.append(items)

    def _op_BINARY_SLICE(self, code, instrs, i, st):  # noqa: N802
        _pop(st, 2)
        st.append(_box(_item(st.pop())))  # a new container of the same items

    # -- stack shuffles -----------------------------------------------------------------

    def _op_COPY(self, code, instrs, i, st):  # noqa: N802
        st.append(st[-instrs[i].arg])

    def _op_SWAP(self, code, instrs, i, st):  # noqa: N802
        n = instrs[i].arg
        st[-1], st[-n] = st[-n], st[-1]

    def _op_DUP_TOP(self, code, instrs, i, st):  # noqa: N802
        st.append(st[-1])

    def _op_DUP_TOP_TWO(self, code, instrs, i, st):  # noqa: N802
        st.extend(st[-2:])

    def _op_ROT_TWO(self, code, instrs, i, st):  # noqa: N802
        self._rotate(st, 2)

    def _op_ROT_THREE(self, code, instrs, i, st):  # noqa: N802
        self._rotate(st, 3)

    def _op_ROT_FOUR(self, code, instrs, i, st):  # noqa: N802
        self._rotate(st, 4)

    def _op_ROT_N(self, code, instrs, i, st):  # noqa: N802
        self._rotate(st, instrs[i].arg)

    @staticmethod
    def _rotate(st: list, n: int) -> None:
        """Python 3.10's ROT_n: the top moves down to the n-th place."""
        top = st.pop()
        st.insert(len(st) - (n - 1), top)

    # -- iteration, unpacking, imports, functions ----------------------------------------

    def _op_GET_ITER(self, code, instrs, i, st):  # noqa: N802
        obj = st.pop()
        self.events.update(("iter", p) for p in _paths(obj))
        st.append(_extend(obj, ("it",)) | frozenset(x for x in obj if x[0] == "box"))

    _op_GET_YIELD_FROM_ITER = _op_GET_ITER

    def _op_FOR_ITER(self, code, instrs, i, st):  # noqa: N802
        iterator = st[-1]
        items = {p[:-1] + (("i",),) for p in _paths(iterator) if p[-1] == ("it",)}
        st.append(frozenset(items) | _item(frozenset(x for x in iterator
                                                     if not _is_path(x) or x[-1] != ("it",))))

    def _op_UNPACK_SEQUENCE(self, code, instrs, i, st):  # noqa: N802
        st.extend([_item(st.pop())] * instrs[i].arg)

    def _op_UNPACK_EX(self, code, instrs, i, st):  # noqa: N802
        arg = instrs[i].arg
        st.extend([_item(st.pop())] * ((arg & 0xFF) + 1 + (arg >> 8)))

    def _op_BUILD_MAP(self, code, instrs, i, st):  # noqa: N802
        st.append(_box(_union(_pop(st, 2 * instrs[i].arg))))

    def _op_BUILD_CONST_KEY_MAP(self, code, instrs, i, st):  # noqa: N802
        st.append(_box(_union(_pop(st, instrs[i].arg + 1))))

    def _op_MAP_ADD(self, code, instrs, i, st):  # noqa: N802
        value = st.pop() | st.pop()
        st[-instrs[i].arg] = st[-instrs[i].arg] | _box(value)

    def _op_IMPORT_NAME(self, code, instrs, i, st):  # noqa: N802
        fromlist, level = st.pop(), st.pop()
        levels = [v for k, v in (x for x in level if x[0] == "k") if isinstance(v, int)]
        path = (("m", instrs[i].argval, levels[0] if levels else 0,
                 ("k", None) in fromlist),)
        self.events.add(("load", path))
        st.append(frozenset({path}))

    def _op_IMPORT_FROM(self, code, instrs, i, st):  # noqa: N802
        items = _extend(st[-1], ("a", instrs[i].argval))
        self.events.update(("load", p) for p in items)
        st.append(items)

    def _op_MAKE_FUNCTION(self, code, instrs, i, st):  # noqa: N802
        ins = instrs[i]
        popped = _pop(st, 1 - dis.stack_effect(ins.opcode, ins.arg))
        made = {("code", v) for slot in popped for k, v in (x for x in slot if x[0] == "k")
                if isinstance(v, types.CodeType)}
        st.append(frozenset(made))

    def _op_SET_FUNCTION_ATTRIBUTE(self, code, instrs, i, st):  # noqa: N802
        function = st.pop()
        st.pop()
        st.append(function)

    def _op_BEFORE_WITH(self, code, instrs, i, st):  # noqa: N802
        manager = st.pop()
        for name in ("__enter__", "__exit__"):
            self._call_event(frozenset(("meth", p, name) for p in _paths(manager)), [], (), _E)
        st.extend([_E, _E])

    _op_BEFORE_ASYNC_WITH = _op_BEFORE_WITH

    def _op_SETUP_WITH(self, code, instrs, i, st):  # noqa: N802 - Python 3.10
        self._op_BEFORE_WITH(code, instrs, i, st)

    # -- calls ------------------------------------------------------------------------------

    def _call_op(self, code, st, args: int, callee: int, names: tuple) -> None:
        """A call: `callee` stack entries name it (function, or method and self), `args`
        arguments follow; the result is a new object."""
        popped = _pop(st, args + callee)
        self._call(code, popped[:callee], popped[callee:], names)
        st.append(_E)

    def _op_CALL_FUNCTION(self, code, instrs, i, st):  # noqa: N802 - Python 3.10
        self._call_op(code, st, instrs[i].arg, 1, ())

    def _op_CALL_METHOD(self, code, instrs, i, st):  # noqa: N802 - Python 3.10
        self._call_op(code, st, instrs[i].arg, 2, ())

    def _op_CALL_FUNCTION_KW(self, code, instrs, i, st):  # noqa: N802 - Python 3.10
        names = _constant_names(st.pop())
        self._call_op(code, st, instrs[i].arg, 1, names)

    def _op_CALL(self, code, instrs, i, st):  # noqa: N802
        names = ()
        back = 2 if i and instrs[i - 1].opname == "PRECALL" else 1  # 3.11: KW_NAMES, PRECALL
        if i >= back and instrs[i - back].opname == "KW_NAMES":  # 3.11, 3.12
            names = code.co_consts[instrs[i - back].arg]
        self._call_op(code, st, instrs[i].arg, 2, names)

    def _op_CALL_KW(self, code, instrs, i, st):  # noqa: N802 - Python 3.13
        names = _constant_names(st.pop())
        self._call_op(code, st, instrs[i].arg, 2, names)

    def _op_CALL_FUNCTION_EX(self, code, instrs, i, st):  # noqa: N802
        ins = instrs[i]
        popped = _pop(st, 1 - dis.stack_effect(ins.opcode, ins.arg))
        rest = 1 + (ins.arg & 1)
        self._call(code, popped[:-rest], [], (), star=_item(_union(popped[-rest:])))
        st.append(_E)

    def _op_CALL_INTRINSIC_1(self, code, instrs, i, st):  # noqa: N802
        pass  # one value in, one out (list to tuple, unary plus, ...): origins kept

    def _op_PRECALL(self, code, instrs, i, st):  # noqa: N802 - 3.11 (dis sizes it as CALL's)
        pass

    def _op_FORMAT_VALUE(self, code, instrs, i, st):  # noqa: N802
        _pop(st, 2 if instrs[i].arg & 4 else 1)
        st.append(_E)

    def _call(self, code: types.CodeType, pair: list, args: list, names: tuple,
              star: frozenset = _E) -> None:
        """A call: functions made in this unit get the argument origins for their
        parameters; anything else is an event checked at launch."""
        if len(pair) == 2 and not _V313:  # 3.11, 3.12: [NULL, callable] or [callable, self]
            pair = pair[::-1] if ("null",) in pair[0] else pair
        callee = pair[0] if pair else _E
        names = names[len(names) - len(args):] if len(names) > len(args) else names
        positional = args[:len(args) - len(names)]
        if len(pair) == 2 and ("null",) not in pair[1] and not any(
                x[0] == "meth" for x in callee):
            positional = [pair[1], *positional]  # [callable, self]: self is the first argument
        targets = frozenset(x for x in callee if x[0] in ("meth", "code") or _is_path(x))
        keywords = tuple(zip(names, args[len(args) - len(names):], strict=True))
        for target in targets:
            if target[0] == "code":
                self._bind_call(target[1], positional, keywords, star)
        rest = frozenset(t for t in targets if t[0] != "code")
        if rest:
            self._call_event(rest, positional, keywords, star)

    def _call_event(self, targets: frozenset, positional: list, keywords: tuple,
                    star: frozenset) -> None:
        if targets:
            self.events.add(("call", targets, tuple(positional), keywords, star))

    def _bind_call(self, callee: types.CodeType, positional: list, keywords: tuple,
                   star: frozenset) -> None:
        """A nested function called here: its parameters take the arguments' origins."""
        params = _parameters(callee)
        named = callee.co_varnames[:callee.co_argcount + callee.co_kwonlyargcount]
        flags = callee.co_flags
        spill = _E
        for k, items in enumerate(positional):
            if k < callee.co_argcount:
                self._bind(callee, named[k], items)
            else:
                spill |= items
        if flags & inspect.CO_VARARGS:
            self._bind(callee, callee.co_varnames[len(named)], spill)
        for name, items in keywords:
            if name in named:
                self._bind(callee, name, items)
            elif flags & inspect.CO_VARKEYWORDS:
                self._bind(callee, params[-1], items)
        if star:
            for name in params:
                self._bind(callee, name, star)


def _parameters(code: types.CodeType) -> tuple[str, ...]:
    count = code.co_argcount + code.co_kwonlyargcount
    count += bool(code.co_flags & inspect.CO_VARARGS) + bool(
        code.co_flags & inspect.CO_VARKEYWORDS)
    return code.co_varnames[:count]


def _pop(st: list, n: int) -> list:
    if n <= 0:
        return []
    popped = st[-n:]
    del st[-n:]
    return [_E] * (n - len(popped)) + popped


def _union(slots: Iterable[frozenset]) -> frozenset:
    out: frozenset = _E
    for slot in slots:
        out |= slot
    return out


def _constant_names(slot: frozenset) -> tuple:
    for item in slot:
        if item[0] == "k" and isinstance(item[1], tuple):
            return item[1]
    return ()


def _generic(st: list, ins: dis.Instruction, jump: bool) -> list:
    """An instruction that moves no value the check follows (jumps, POP_TOP, exception
    bookkeeping, ...): its net stack effect as dis gives it, new slots unknown values."""
    try:
        effect = dis.stack_effect(ins.opcode, ins.arg, jump=jump)
    except ValueError:  # an opcode dis cannot size (none known): assume it keeps the depth
        effect = 0
    st = list(st)
    if effect < 0:
        _pop(st, -effect)
    else:
        st.extend([_E] * effect)
    return st


@functools.lru_cache(maxsize=2048)
def _instructions(code: types.CodeType) -> tuple[list, dict, list]:
    """A code object's instructions, offset -> index, and per instruction the exception
    handlers covering it as (target offset, stack depth, push lasti)."""
    instrs = list(dis.get_instructions(code))
    index = {ins.offset: k for k, ins in enumerate(instrs)}
    handlers: list[list] = [[] for _ in instrs]
    for entry in getattr(dis.Bytecode(code), "exception_entries", ()):
        for k, ins in enumerate(instrs):
            if entry.start <= ins.offset < entry.end and entry.target in index:
                handlers[k].append((entry.target, entry.depth, entry.lasti))
    return instrs, index, handlers


class _Sites:
    """Events -> the instructions, (code, index), that produce them."""

    def __init__(self) -> None:
        self.site: tuple = ()
        self.sites: dict[tuple, set[tuple]] = {}

    def add(self, event: tuple) -> None:
        self.sites.setdefault(event, set()).add(self.site)

    def update(self, events: Iterable[tuple]) -> None:
        for event in events:
            self.add(event)

    def items(self) -> Iterable[tuple[tuple, set[tuple]]]:
        return self.sites.items()


def _must_raise(code: types.CodeType) -> set[int]:
    """Instructions from which every path ends in an exception no handler of `code` can
    catch (an `assert`'s message, a `raise` and what leads only to it)."""
    instrs, index, _ = _instructions(code)
    catches = _catches(code)
    edges = []
    for i, ins in enumerate(instrs):
        nexts = [] if ins.opname in _TERMINAL or ins.opname in _UNCONDITIONAL else [i + 1]
        if ins.opcode in _JUMPS and ins.argval in index:
            nexts.append(index[ins.argval])
        edges.append([j for j in nexts if j < len(instrs)])
    raising = [False] * len(instrs)
    changed = True
    while changed:
        changed = False
        for i in reversed(range(len(instrs))):
            name = instrs[i].opname
            ends = name in ("RAISE_VARARGS", "RERAISE") or (
                name not in _TERMINAL and bool(edges[i]) and all(raising[j] for j in edges[i]))
            if not raising[i] and ends and all(raising[j] for j in catches[i]):
                raising[i] = changed = True
    return {i for i, r in enumerate(raising) if r}


def _covered(code: types.CodeType) -> set[int]:
    """Instructions inside a try or with block (an exception there may be caught)."""
    return {i for i, c in enumerate(_catches(code)) if c}


@functools.lru_cache(maxsize=2048)
def _catches(code: types.CodeType) -> list[list[int]]:
    """Per instruction, the handlers (instruction indices) an exception there goes to: the
    code's exception table."""
    _, index, handlers = _instructions(code)
    return [[index[t] for t, _, _ in h] for h in handlers]


@functools.lru_cache(maxsize=1024)
def code_facts(code: types.CodeType) -> tuple:
    """What `code` (and code nested in it) does with values from outside its locals, as
    (event, only on the way to an exception, inside a try/with block): ("rebind",
    "global"|"closure", name), ("store", path, step), ("inplace", path, op), ("iter", path),
    ("call", targets, positional, keywords, star), ("load", path); writes first, so the cause
    a launch names is the most direct one."""
    return tuple(sorted(_Unit(code).run(), key=_event_order))


def _event_order(fact: tuple) -> tuple:
    event = fact[0]
    return ("rebind", "store", "inplace", "iter", "call", "load").index(event[0]), _canon(event)


def _canon(x: object) -> str:
    """A repr independent of set order (string hashes vary between runs)."""
    if isinstance(x, (set, frozenset)):
        return "{" + ",".join(sorted(_canon(v) for v in x)) + "}"
    if isinstance(x, tuple):
        return "(" + ",".join(_canon(v) for v in x) + ")"
    return repr(x)


# -- objects: what a value reached at launch is -------------------------------------------

class _Unknown:
    """An object the analysis cannot name (a property's value, an item of a user
    container): mutable as far as the launch knows."""

    def __repr__(self) -> str:
        return "<unknown>"


_UNKNOWN = _Unknown()


class _Bag:
    """The extra positional arguments of a call, as a *args tuple the callee sees."""

    def __init__(self, values: list[_Val]) -> None:
        self.values = values


class _Val:
    """A reached object and how the kernel reaches it: origin 'global', 'closure',
    'argument', ... and the expression ('mod.counter', 'rng')."""

    __slots__ = ("obj", "name", "origin")

    def __init__(self, obj: Any, name: str, origin: str) -> None:
        self.obj, self.name, self.origin = obj, name, origin

    def label(self) -> str:
        return f"{self.origin} '{self.name}'"

    def derived(self, obj: object, name: str) -> _Val:
        return _Val(obj, name, self.origin)


def _module_name(obj: object) -> str:
    name = getattr(obj, "__module__", None)
    return name if isinstance(name, str) else ""


def _is_trusted_module(name: str) -> bool:
    top = name.split(".", 1)[0]
    return top in _TRUSTED and not name.startswith("rocwmma_py.samples")


def _kind(obj: object) -> str:
    """What `obj` is, for the rules: value, array, module, class, trusted, function (Python
    code), method (a Python function bound to an object), cfunction (code the launch cannot
    read, with no object behind it), cmethod (such code bound to a mutable object), mutable,
    unknown."""
    if obj is _UNKNOWN:
        return "unknown"
    if isinstance(obj, _Bag):
        return "value"
    if isinstance(obj, np.ndarray):
        return "array"
    if isinstance(obj, types.ModuleType):
        return "module"
    if isinstance(obj, type):
        return "class"
    if isinstance(obj, types.FunctionType):
        return "trusted" if _is_trusted_module(_module_name(obj)) else "function"
    if isinstance(obj, types.MethodType) and isinstance(obj.__func__, types.FunctionType):
        return "trusted" if _is_trusted_module(_module_name(obj.__func__)) else "method"
    if _is_own_object(obj) or any(obj is stream for stream in (
            sys.stdout, sys.stderr, sys.__stdout__, sys.__stderr__)):
        return "trusted"  # the standard streams: output (workers forward it in block order)
    receiver = getattr(obj, "__self__", _UNKNOWN) if callable(obj) else _UNKNOWN
    if receiver is not _UNKNOWN and not isinstance(obj, type):
        if receiver is None or isinstance(receiver, types.ModuleType):
            return "trusted" if _is_trusted_module(_module_name(obj)) else "cfunction"
        behind = _kind(receiver)
        return "cfunction" if behind in ("value", "array", "class", "trusted") else "cmethod"
    if _is_value(obj):
        return "value"
    if callable(obj) and _is_trusted_module(type(obj).__module__):
        return "trusted"  # numpy's ufuncs and dispatchers
    return "mutable"


def _is_own_object(obj: object) -> bool:
    """An object of this package's classes (pointers, fragments, the thread index proxies):
    the API keeps what it must per wave."""
    name = type(obj).__module__ or ""
    return name.split(".", 1)[0] == "rocwmma_py" and not name.startswith("rocwmma_py.samples")


def _is_value(obj: object, depth: int = 0) -> bool:
    """Immutable: None and the other singletons, objects hashable by value (Python's data
    model asks mutable objects not to be) whose contents are values too, enum members."""
    if obj is None or obj is Ellipsis or obj is NotImplemented or isinstance(
            obj, (enum.Enum, type)):  # (a class in a tuple: `isinstance(x, (A, B))`)
        return True
    kind = type(obj)
    hashing = getattr(kind, "__hash__", None)
    if hashing is None or hashing is object.__hash__ or depth > 4:
        return False
    if isinstance(obj, (tuple, frozenset)):
        return len(obj) <= _MAX_ITEMS and all(_is_value(x, depth + 1) for x in obj)
    try:
        attrs = object.__getattribute__(obj, "__dict__")
    except AttributeError:
        return True
    if kind.__setattr__ is object.__setattr__ or not isinstance(attrs, dict):
        return False  # hashable by value but open to attribute assignment
    return all(_is_value(v, depth + 1) for v in list(attrs.values())[:_MAX_ITEMS])


def type_name(obj: object) -> str:
    """`obj`'s type as users spell it: int, collections.deque, numpy.random.Generator."""
    kind = type(obj)
    qual = kind.__qualname__
    module = kind.__module__ or ""
    if module == "builtins":
        return qual
    parts = module.split(".")
    for n in range(1, len(parts) + 1):  # the shortest public module that exports it
        prefix = ".".join(parts[:n])
        if getattr(sys.modules.get(prefix), qual, None) is kind:
            return f"{prefix}.{qual}"
    return f"{module}.{qual}"


def _what(obj: object) -> str:
    if obj is _UNKNOWN:
        return "an object the launch cannot see into"
    if isinstance(obj, (types.MethodType, types.BuiltinMethodType, types.MethodWrapperType)):
        receiver = getattr(obj, "__self__", None)
        if receiver is not None and not isinstance(receiver, types.ModuleType):
            return f"a method of {type_name(receiver)}"
    return type_name(obj)


# -- the launch's check --------------------------------------------------------------------

class _Found(Exception):  # noqa: N818 - the first state found ends the search
    pass


def _enters_debugger(obj: object) -> bool:
    """`breakpoint`, `sys.breakpointhook` (the one installed now or Python's) or
    `pdb.set_trace`: a call that stops in the debugger."""
    pdb = sys.modules.get("pdb")
    entries = (builtins.breakpoint, sys.breakpointhook, sys.__breakpointhook__,
               getattr(pdb, "set_trace", None))
    return any(obj is entry for entry in entries if entry is not None)


class _Env:
    """A function being checked: where its globals, closure and parameters come from."""

    def __init__(self, fn: Any, params: dict[str, list[_Val]], who: str,
                 escapes: bool = False) -> None:
        self.escapes = escapes
        self.fn = fn
        self.globals = fn.__globals__
        builtins = self.globals.get("__builtins__", __builtins__)
        self.builtins = builtins if isinstance(builtins, dict) else vars(builtins)
        self.closure = dict(zip(fn.__code__.co_freevars, fn.__closure__ or (), strict=True))
        self.params = params
        self.who = who
        self.cache: dict[tuple, list[_Val]] = {}


class _Check:
    """Follows a kernel's code through what it reaches; raises _Found with the first
    Python state it may change and collects the host arrays it reaches."""

    def __init__(self, launch_arrays: list[np.ndarray]) -> None:
        self.launch_arrays = launch_arrays
        self.arrays: dict[int, np.ndarray] = {}
        self.done: set = set()

    def found(self, val: _Val, detail: str, env: _Env) -> None:
        raise _Found(f"the kernel reaches mutable Python state: {val.label()} "
                     f"({_what(val.obj)}, {detail} by {env.who})")

    # -- resolving paths --------------------------------------------------------------

    def resolve(self, path: tuple, env: _Env) -> list[_Val]:
        cached = env.cache.get(path)
        if cached is not None:
            return cached
        vals = self._root(path[0], env)
        for step in path[1:]:
            vals = [out for v in vals for out in self._step(v, step, env)]
        for v in vals:
            if isinstance(v.obj, np.ndarray):
                self._reached_array(v.obj)
        env.cache[path] = vals
        return vals

    def _root(self, root: tuple, env: _Env) -> list[_Val]:
        kind, name = root[0], root[1]
        if kind == "g":
            if name in env.globals:
                return [_Val(env.globals[name], name, "global")]
            if name in env.builtins:
                return [_Val(env.builtins[name], name, "builtin")]
            return []
        if kind == "f":
            cell = env.closure.get(name)
            try:
                return [] if cell is None else [_Val(cell.cell_contents, name, "closure")]
            except ValueError:  # not assigned yet
                return []
        if kind == "p":
            return env.params.get(name, [])
        level, top = root[2], root[3]
        try:
            full = importlib.util.resolve_name("." * level + name,
                                               env.globals.get("__package__") or "")
        except (ImportError, ValueError):
            return [_Val(_UNKNOWN, name, "import")]
        module = sys.modules.get(full.split(".")[0] if top else full)
        return [_Val(module if module is not None else _UNKNOWN, name, "import")]

    def _step(self, val: _Val, step: tuple, env: _Env) -> list[_Val]:
        obj = val.obj
        kind = _kind(obj)
        if step[0] == "?" or kind == "unknown":
            return [val.derived(_UNKNOWN, f"{val.name}...")]
        if step[0] == "it":
            own_iterator = kind == "mutable" and hasattr(type(obj), "__next__")
            return [val] if own_iterator else []
        if kind in ("array", "trusted"):
            return []  # arrays are guarded; this package's objects keep their own state
        if step[0] == "i":
            return self._items(val, kind)
        return self._attribute(val, step[1], kind, env)

    def _items(self, val: _Val, kind: str) -> list[_Val]:
        obj = val.obj
        name = f"{val.name}[...]"
        if isinstance(obj, _Bag):
            return obj.values
        if isinstance(obj, (tuple, list, set, frozenset, dict)):
            if len(obj) > _MAX_ITEMS:
                return [val.derived(_UNKNOWN, name)]
            items = list(obj.values()) + list(obj) if isinstance(obj, dict) else list(obj)
            return [val.derived(x, name) for x in items]
        if kind in ("module", "class", "value"):
            return []  # a type expression, or an item of an immutable value
        return [val.derived(_UNKNOWN, name)]

    def _attribute(self, val: _Val, attr: str, kind: str, env: _Env) -> list[_Val]:
        obj, name = val.obj, f"{val.name}.{attr}"
        if kind == "module":
            try:
                return [val.derived(getattr(obj, attr), name)]
            except Exception:  # noqa: BLE001 - whatever a module's __getattr__ raises
                return [val.derived(_UNKNOWN, name)]
        if kind == "value":
            try:
                return [val.derived(getattr(obj, attr), name)]
            except Exception:  # noqa: BLE001
                return []
        try:
            raw = inspect.getattr_static(obj, attr)
        except AttributeError:
            return [val.derived(_UNKNOWN, name)]
        if kind == "class":
            if isinstance(raw, staticmethod):
                raw = raw.__func__
            elif isinstance(raw, classmethod):
                raw = types.MethodType(raw.__func__, obj)
            return [val.derived(raw, name)]
        try:
            own = object.__getattribute__(obj, "__dict__")
        except AttributeError:
            own = None
        if isinstance(own, dict) and attr in own:
            return [val.derived(own[attr], name)]
        if isinstance(raw, property):
            if raw.fget is not None:
                self.call(_Val(raw.fget, name, "property"), [val], (), [], env, 0)
            return [val.derived(_UNKNOWN, name)]
        if isinstance(raw, types.FunctionType):
            return [val.derived(types.MethodType(raw, obj), name)]
        if isinstance(raw, staticmethod):
            return [val.derived(raw.__func__, name)]
        if isinstance(raw, classmethod):
            return [val.derived(types.MethodType(raw.__func__, type(obj)), name)]
        if hasattr(type(raw), "__get__"):  # C method, slot or member descriptors
            try:
                return [val.derived(raw.__get__(obj, type(obj)), name)]
            except Exception:  # noqa: BLE001 - an unset slot, a failing getter
                return [val.derived(_UNKNOWN, name)]
        return [val.derived(raw, name)]

    def _reached_array(self, array: np.ndarray) -> None:
        if id(array) not in self.arrays and not any(
                np.may_share_memory(array, a) for a in self.launch_arrays):
            self.arrays[id(array)] = array

    def values(self, items: Iterable[tuple], env: _Env) -> list[_Val]:
        """What these origins are at launch (a container made by the code: a bag of what it
        holds)."""
        out = []
        for x in sorted(items, key=_canon):  # a stable order: the cause named
            if _is_path(x):
                out.extend(self.resolve(x, env))
            elif x[0] == "box":
                out.append(_Val(_Bag(self.values((x[1],), env)), "a container", "new"))
        return out

    # -- events -------------------------------------------------------------------------

    def function(self, fn: types.FunctionType, params: dict[str, list[_Val]], who: str,
                 depth: int, escapes: bool = False) -> None:
        """Check `fn`'s code with these parameters; `escapes`: an exception it raises ends
        the launch (no handler on the way), so what it does only on the way to raising one
        is not checked (the launch fails on both engines; like printing, such effects may
        then happen once more)."""
        key = (fn, escapes, tuple(sorted((k, tuple(id(v.obj) for v in vs))
                                         for k, vs in params.items())))
        if key in self.done or depth > _MAX_DEPTH:
            return
        self.done.add(key)
        env = _Env(fn, params, who, escapes)
        for event, raising, covered in code_facts(fn.__code__):
            if not (raising and escapes):
                getattr(self, "_" + event[0])(event, env, depth, escapes and not covered)

    def _rebind(self, event: tuple, env: _Env, depth: int, escapes: bool) -> None:
        _, kind, name = event
        if kind == "global":
            value = env.globals.get(name, _UNKNOWN)
            raise _Found(f"the kernel reaches mutable Python state: global '{name}' "
                         f"({_what(value) if name in env.globals else 'not yet defined'}, "
                         f"rebound by {env.who})")
        cell = env.closure.get(name)
        try:
            value = _UNKNOWN if cell is None else cell.cell_contents
        except ValueError:
            value = _UNKNOWN
        raise _Found(f"the kernel reaches mutable Python state: closure '{name}' "
                     f"({_what(value)}, rebound by {env.who})")

    def _store(self, event: tuple, env: _Env, depth: int, escapes: bool) -> None:
        _, path, step = event
        for v in self.resolve(path, env):
            kind = _kind(v.obj)
            if kind == "array" or kind == "trusted" and step[0] == "i":
                continue  # guarded host arrays; memory behind this package's pointers
            if step[0] == "a":
                current = self._attribute(v, step[1], _kind(v.obj), env) or [
                    v.derived(_UNKNOWN, f"{v.name}.{step[1]}")]
                target = current[0]
                what = _what(target.obj) if target.obj is not _UNKNOWN else "a new attribute"
                raise _Found(f"the kernel reaches mutable Python state: {target.label()} "
                             f"({what}, assigned by {env.who})")
            self.found(v, "an item assigned", env)

    def _inplace(self, event: tuple, env: _Env, depth: int, escapes: bool) -> None:
        """`x += y` changes x in place only when x's type has the in-place method; else it
        makes a new object (rebinding x, which the stores are checked for)."""
        _, path, dunder = event
        for v in self.resolve(path, env):
            kind = _kind(v.obj)
            if kind == "unknown" or kind not in ("value", "array") and hasattr(type(v.obj),
                                                                                dunder):
                self.found(v, f"changed in place by {dunder}", env)

    def _iter(self, event: tuple, env: _Env, depth: int, escapes: bool) -> None:
        for v in self.resolve(event[1], env):
            kind = _kind(v.obj)
            if kind == "unknown" or kind == "mutable" and hasattr(type(v.obj), "__next__"):
                self.found(v, "iterated, which advances it,", env)

    def _load(self, event: tuple, env: _Env, depth: int, escapes: bool) -> None:
        for v in self.resolve(event[1], env):
            if _kind(v.obj) in ("function", "method"):
                self.call(v, [], (), [], env, depth)  # reached: may be called from anywhere

    def _call(self, event: tuple, env: _Env, depth: int, escapes: bool) -> None:
        _, targets, positional, keywords, star = event
        args = [self.values(a, env) for a in positional]
        kwargs = tuple((name, self.values(items, env)) for name, items in keywords)
        extra = self.values(star, env)
        for target in sorted(targets, key=_canon):
            if target[0] == "meth":
                for receiver in self.resolve(target[1], env):
                    self.method(receiver, target[2], args, kwargs, extra, env, depth, escapes)
            else:
                for callee in self.resolve(target, env):
                    self.call(callee, [], kwargs, extra, env, depth, args, escapes)

    def method(self, receiver: _Val, name: str, args: list, kwargs: tuple, extra: list,
               env: _Env, depth: int, escapes: bool = False) -> None:
        """`receiver.name(...)`: the attribute, called (a method of a mutable object that
        the launch cannot read — C code, or no attribute it can name — changes it)."""
        kind = _kind(receiver.obj)
        if kind in ("array", "trusted"):
            return
        if kind == "unknown":
            self.found(receiver, f"its method '{name}' called", env)
        for method in self._attribute(receiver, name, kind, env):
            found, found_kind = method.obj, _kind(method.obj)
            bound = getattr(found, "__self__", None) is receiver.obj
            if found_kind == "cmethod" and bound or found_kind == "unknown" and kind not in (
                    "module", "class", "value"):
                self.found(receiver, f"its method '{name}' called", env)
            elif found_kind == "method" and bound:
                self.call(method.derived(found.__func__, method.name), [receiver], kwargs,
                          extra, env, depth, args, escapes)
            else:
                self.call(method, [], kwargs, extra, env, depth, args, escapes)

    def call(self, callee: _Val, bound: list[_Val], kwargs: tuple, extra: list, env: _Env,
             depth: int, args: list[list[_Val]] | None = None, escapes: bool = False) -> None:
        """Calling `callee` with positional `args` (each a list of candidates; `bound`: an
        object bound to its first parameter), keyword `kwargs`, `*`/`**` contents `extra`."""
        args = ([[b] for b in bound] if bound else []) + (args or [])
        obj, kind = callee.obj, _kind(callee.obj)
        if _enters_debugger(obj):
            raise _Found("breakpoint")
        if kind in ("trusted", "array", "module"):
            return
        if kind == "function":
            params = _bind(obj, args, kwargs, extra, callee)
            self.function(obj, params, f"{obj.__qualname__}()", depth + 1, escapes)
            return
        if kind == "method":
            owner = callee.derived(obj.__self__, f"{callee.name}.__self__")
            self.call(callee.derived(obj.__func__, callee.name), [owner], kwargs, extra, env,
                      depth, args, escapes)
            return
        if kind == "cmethod":
            self.found(callee, "called", env)
        if kind == "unknown":
            self.found(callee, "called", env)
        if kind == "class":
            self._construct(callee, args, kwargs, extra, env, depth)
            return
        if kind in ("mutable", "value"):
            wrapped = getattr(obj, "__wrapped__", None) if kind == "mutable" else None
            handler = inspect.getattr_static(type(obj), "__call__", None)
            if isinstance(wrapped, types.FunctionType):  # functools.wraps' convention
                self.call(callee.derived(wrapped, callee.name), [], kwargs, extra, env, depth,
                          args)
                return
            if isinstance(handler, types.FunctionType):
                self.call(callee.derived(handler, callee.name), [callee], kwargs, extra, env,
                          depth, args)
                return
            if kind == "mutable":
                self.found(callee, "called", env)
        self._opaque(callee, args, kwargs, extra, env, depth)

    def _construct(self, cls: _Val, args: list, kwargs: tuple, extra: list, env: _Env,
                   depth: int) -> None:
        """`Class(...)`: a user class's Python __new__/__init__ run; a C type reads its
        arguments as code the launch cannot see into."""
        if _is_trusted_module(_module_name(cls.obj)):
            return
        python = False
        for name in ("__new__", "__init__"):
            found = inspect.getattr_static(cls.obj, name, None)
            if isinstance(found, staticmethod):
                found = found.__func__
            if isinstance(found, types.FunctionType):
                python = True
                first = [cls] if name == "__new__" else []  # __init__'s self: a new object
                self.call(cls.derived(found, f"{cls.name}.{name}"), [], kwargs, extra, env,
                          depth, [first] + args)
        if not python:
            self._opaque(cls, args, kwargs, extra, env, depth)

    def _opaque(self, callee: _Val, args: list, kwargs: tuple, extra: list, env: _Env,
                depth: int) -> None:
        """Code the launch cannot read gets these arguments: it may change any mutable one,
        and call any function among them."""
        vals = [v for a in args for v in a] + [v for _, a in kwargs for v in a] + extra
        while any(isinstance(v.obj, _Bag) for v in vals):  # what containers made here hold
            vals = [w for v in vals for w in (v.obj.values if isinstance(v.obj, _Bag) else [v])]
        for v in vals:
            kind = _kind(v.obj)
            if kind in ("function", "method"):
                self.call(v, [], (), [], env, depth)
            elif kind in ("mutable", "unknown", "cmethod") or kind == "module" and not (
                    _is_trusted_module(v.obj.__name__)):
                name = getattr(callee.obj, "__name__", None) or callee.name
                self.found(v, f"passed to {name}()", env)


def _bind(fn: types.FunctionType, args: list[list[_Val]], kwargs: tuple, extra: list,
          callee: _Val) -> dict[str, list[_Val]]:
    """Candidates for each parameter of `fn` called with these arguments (defaults for the
    ones not given; `extra`, the contents of *args/**kwargs, may reach any)."""
    code = fn.__code__
    params = _parameters(code)
    named = code.co_varnames[:code.co_argcount + code.co_kwonlyargcount]
    out: dict[str, list[_Val]] = {}
    spill: list[_Val] = []
    for k, vals in enumerate(args):
        if k < code.co_argcount:
            out.setdefault(named[k], []).extend(vals)
        else:
            spill.extend(vals)
    flags = code.co_flags
    if flags & inspect.CO_VARARGS:
        out[code.co_varnames[len(named)]] = [callee.derived(_Bag(spill + extra), "*args")]
    for name, vals in kwargs:
        if name in named:
            out.setdefault(name, []).extend(vals)
        elif flags & inspect.CO_VARKEYWORDS:
            out[params[-1]] = [callee.derived(_Bag(vals + extra), "**kwargs")]
    defaults = dict(zip(code.co_varnames[code.co_argcount - len(fn.__defaults__ or ()):
                                         code.co_argcount], fn.__defaults__ or (), strict=True))
    defaults.update(fn.__kwdefaults__ or {})
    for name in named:
        if name not in out and name in defaults:
            out[name] = [_Val(defaults[name], f"{fn.__qualname__}.{name}", "default")]
        if extra:
            out.setdefault(name, []).extend(extra)
    return out


def kernel_state(fn: Callable[..., Any], args: tuple, kwargs: dict,
                 launch_arrays: list[np.ndarray]) -> tuple[str, list[np.ndarray]]:
    """(why the launch must run per wave — "" if it need not —, the host arrays to guard).

    `fn` is the kernel's function, `args`/`kwargs` its launch arguments (pointers already
    made), `launch_arrays` the arrays behind its pointer arguments (never guarded)."""
    check = _Check(launch_arrays)
    root = _Val(fn, getattr(fn, "__name__", "kernel"), "kernel")
    try:
        if isinstance(fn, types.FunctionType):
            params = _launch_params(fn, args, kwargs)
            check.function(fn, params, "the kernel", 0, escapes=True)
        else:
            env = _Env(_kernel_stub, {}, "the kernel")
            check.call(root, [], tuple((k, [_Val(v, k, "argument")]) for k, v in
                                       kwargs.items()), [], env, 0,
                       [[_Val(a, f"argument {i}", "argument")] for i, a in enumerate(args)])
    except _Found as found:
        return str(found), []
    except Exception as err:  # noqa: BLE001 - a gap in the analysis must not fail the launch
        return (f"the launch could not read the kernel's code for the Python state it may "
                f"change ({type(err).__name__}: {err})"), []
    return "", list(check.arrays.values())


def _kernel_stub() -> None:  # globals for checking a kernel that is not a plain function
    pass


def _launch_params(fn: types.FunctionType, args: tuple, kwargs: dict) -> dict[str, list[_Val]]:
    try:
        bound = inspect.signature(fn).bind(*args, **kwargs)
    except (TypeError, ValueError):
        return {}
    given = set(bound.arguments)
    bound.apply_defaults()
    return {name: [_Val(value, name, "argument" if name in given else "default")]
            for name, value in bound.arguments.items()}
