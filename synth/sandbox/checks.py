"""Static checks on generated code, run before RestrictedPython, and two small AST rewrites.

Checks (each problem is reported as `line N: message`):
- imports only from the allowlist, only allowed names from them, no relative imports;
- builtins that do not exist in the sandbox (`open`, `eval`, `type`, `id`, ...) when the code never binds
  the name itself (a tool parameter may be called `type` or `id`);
- no classes, decorators, `global`, bare `except:`, blocked attributes (`mro`, frames, clock);
- default values are constants (mutable defaults would be shared by every episode);
- the module body only defines things: functions, imports and bounded constant assignments, so loading a
  module cannot loop or allocate without bound.
Rewrites: annotations are dropped (they would be evaluated at definition time), and `x[k] += v` becomes
`x[k] = x[k] + v` (RestrictedPython refuses augmented item assignment, which generated code uses a lot).
"""

from __future__ import annotations

import ast
import itertools
from typing import Any

from synth.sandbox.policy import (
    ALLOWED_MODULES,
    BLOCKED_ATTRS,
    CLOCK_ATTRS,
    FORBIDDEN_NAMES,
    MODULE_ATTRS,
    MODULE_LEVEL_CALLS,
    RESERVED_PREFIX,
)

MAX_SOURCE_CHARS = 256_000
_MAX_LITERAL_ITEMS = 10_000
_MAX_LITERAL_INT = 10**18
_COMPREHENSIONS = (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)


class _NotBounded(Exception):
    pass


def parse_source(source: str, filename: str = "env.py") -> tuple[ast.Module | None, list[str]]:
    """Parse `source`; returns (tree, []) or (None, [problem])."""
    if not isinstance(source, str):
        return None, ["source must be a string"]
    if len(source) > MAX_SOURCE_CHARS:
        return None, [f"source is too long ({len(source)} characters, at most {MAX_SOURCE_CHARS})"]
    try:
        return ast.parse(source, filename=filename), []
    except SyntaxError as err:
        return None, [f"line {err.lineno}: syntax error: {err.msg}"]
    except (RecursionError, MemoryError, ValueError) as err:
        return None, [f"source cannot be parsed: {type(err).__name__}: {err}"]


def check_tree(tree: ast.Module) -> list[str]:
    """Policy problems in a parsed module (empty when it passes)."""
    checker = _Checker()
    checker.check_module(tree)
    return checker.problems


def rewrite_tree(tree: ast.Module) -> ast.Module:
    """Drop annotations and expand augmented item assignments (in place; returns the tree)."""
    tree = _Rewriter().visit(tree)
    ast.fix_missing_locations(tree)
    return tree


def _dotted(node: ast.AST) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        base = _dotted(node.value)
        return f"{base}.{node.attr}" if base else None
    return None


def _is_constant(node: ast.AST) -> bool:
    if isinstance(node, ast.Constant):
        return True
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        return isinstance(node.operand, ast.Constant) and isinstance(node.operand.value, (int, float))
    if isinstance(node, ast.Tuple):
        return all(_is_constant(e) for e in node.elts)
    return False


def _bounded_value(node: ast.AST) -> Any:
    """Evaluate a literal-only expression whose size is bounded, or raise _NotBounded."""
    if isinstance(node, ast.Constant) and isinstance(node.value, (int, float, str, bool)):
        return node.value
    if isinstance(node, (ast.List, ast.Tuple)):
        return [_bounded_value(e) for e in node.elts]
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        value = _bounded_value(node.operand)
        if isinstance(value, (int, float)):
            return -value if isinstance(node.op, ast.USub) else value
    if isinstance(node, ast.BinOp):
        left, right = _bounded_value(node.left), _bounded_value(node.right)
        numbers = isinstance(left, (int, float)) and isinstance(right, (int, float))
        if isinstance(node.op, ast.Mult):
            if numbers and abs(left) <= _MAX_LITERAL_INT and abs(right) <= _MAX_LITERAL_INT:
                if abs(left * right) <= _MAX_LITERAL_INT:
                    return left * right
            for seq, count in ((left, right), (right, left)):
                if isinstance(seq, (str, list)) and isinstance(count, int) and len(seq) * count <= _MAX_LITERAL_ITEMS:
                    return seq * count
        elif isinstance(node.op, ast.Pow) and numbers:
            if abs(right) <= 64 and abs(left) <= 10**6:
                return left**right
        elif isinstance(node.op, ast.LShift) and isinstance(left, int) and isinstance(right, int):
            if 0 <= right <= 64 and abs(left) <= 10**6:
                return left << right
        elif numbers and isinstance(node.op, (ast.Add, ast.Sub)):
            return left + right if isinstance(node.op, ast.Add) else left - right
    raise _NotBounded()


def _line_of(problem: str) -> int:
    head = problem.split(":", 1)[0]
    return int(head[5:]) if head.startswith("line ") and head[5:].isdigit() else 0


class _Checker(ast.NodeVisitor):
    def __init__(self) -> None:
        self.problems: list[str] = []
        self.bound: set[str] = set()
        self.loads: list[tuple[str, int]] = []
        self.aliases: dict[str, str] = {}  # local name -> "module" or "module.attr"

    def add(self, node: ast.AST, message: str) -> None:
        self.problems.append(f"line {getattr(node, 'lineno', 0)}: {message}")

    def bind(self, node: ast.AST, name: str) -> None:
        self.bound.add(name)
        if name.startswith(RESERVED_PREFIX):
            self.add(node, f"names starting with {RESERVED_PREFIX!r} are reserved by the sandbox: {name!r}")
        if name == "ToolError":
            self.add(node, "ToolError is provided by the runtime and must not be redefined")

    def check_module(self, tree: ast.Module) -> None:
        self.visit(tree)  # first, so that import aliases are known to the module-level checks
        for stmt in tree.body:
            self.check_module_statement(stmt)
        for name, line in self.loads:
            if name in FORBIDDEN_NAMES and name not in self.bound:
                self.problems.append(f"line {line}: {name!r} is not available in the sandbox ({FORBIDDEN_NAMES[name]})")
        self.problems.sort(key=_line_of)

    # module level -------------------------------------------------------------------------------
    def check_module_statement(self, stmt: ast.stmt) -> None:
        if isinstance(stmt, (ast.FunctionDef, ast.Import, ast.ImportFrom, ast.Pass)):
            return
        if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant) and isinstance(stmt.value.value, str):
            return  # docstring
        if isinstance(stmt, ast.Assign):
            for target in stmt.targets:
                names = target.elts if isinstance(target, (ast.Tuple, ast.List)) else [target]
                if not all(isinstance(n, ast.Name) for n in names):
                    self.add(stmt, "module-level assignments may only bind names")
            self.check_module_value(stmt.value)
            return
        if isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name) and stmt.value is not None:
            self.check_module_value(stmt.value)
            return
        if isinstance(stmt, (ast.ClassDef, ast.AsyncFunctionDef, ast.Global)):
            return  # reported by the visitor
        self.add(
            stmt,
            f"module-level {type(stmt).__name__} statements are not allowed "
            "(the module may only define functions, imports and constants)",
        )

    def check_module_value(self, value: ast.expr) -> None:
        for node in ast.walk(value):
            if isinstance(node, (ast.Lambda, ast.NamedExpr, ast.Yield, ast.YieldFrom, ast.Await) + _COMPREHENSIONS):
                self.add(node, f"{type(node).__name__} is not allowed in module-level constants")
            elif isinstance(node, ast.Call):
                name = _dotted(node.func)
                resolved = self.resolve(name) if name else None
                if resolved not in MODULE_LEVEL_CALLS:
                    self.add(node, f"calling {name or 'this'}() is not allowed in module-level constants")
            elif isinstance(node, ast.JoinedStr):
                self.add(node, "f-strings are not allowed in module-level constants")
            elif (
                isinstance(node, ast.BinOp)
                and isinstance(node.op, ast.Mod)
                and not (isinstance(node.left, ast.Constant) and isinstance(node.left.value, (int, float)))
            ):
                self.add(node, "'%' formatting is not allowed in module-level constants")
            elif isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Mult, ast.Pow, ast.LShift)):
                try:
                    _bounded_value(node)
                except (_NotBounded, ArithmeticError, ValueError, TypeError):
                    self.add(node, "module-level constants may only multiply or raise small literal values")

    def resolve(self, dotted: str) -> str:
        head, _, rest = dotted.partition(".")
        base = self.aliases.get(head, head)
        return f"{base}.{rest}" if rest else base

    # everywhere ---------------------------------------------------------------------------------
    def visit_Import(self, node: ast.Import) -> None:
        for alias in node.names:
            if alias.name not in ALLOWED_MODULES:
                self.add(node, f"import of {alias.name!r} is not allowed (allowed: {', '.join(ALLOWED_MODULES)})")
            local = alias.asname or alias.name.split(".")[0]
            self.bind(node, local)
            self.aliases[local] = alias.name

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        module = node.module or ""
        if node.level:
            self.add(node, "relative imports are not allowed")
        elif module not in ALLOWED_MODULES:
            self.add(node, f"import from {module!r} is not allowed (allowed: {', '.join(ALLOWED_MODULES)})")
        for alias in node.names:
            if module in MODULE_ATTRS and alias.name != "*" and alias.name not in MODULE_ATTRS[module]:
                self.add(node, f"{module}.{alias.name} is not available in the sandbox")
            local = alias.asname or alias.name
            self.bind(node, local)
            self.aliases[local] = f"{module}.{alias.name}"

    def visit_FunctionDef(self, node: ast.FunctionDef) -> None:
        self.bind(node, node.name)
        if node.decorator_list:
            self.add(node, f"decorators are not allowed (function {node.name!r})")
        args = node.args
        positional = args.posonlyargs + args.args
        for arg, default in zip(positional[len(positional) - len(args.defaults) :], args.defaults):
            if not _is_constant(default):
                self.add(default, f"default value of parameter {arg.arg!r} must be a constant (use None)")
        for arg, default in zip(args.kwonlyargs, args.kw_defaults):
            if default is not None and not _is_constant(default):
                self.add(default, f"default value of parameter {arg.arg!r} must be a constant (use None)")
        self.generic_visit(node)

    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        self.add(node, f"class definitions are not allowed (class {node.name!r}); use dicts and functions")
        self.generic_visit(node)

    def visit_Global(self, node: ast.Global) -> None:
        self.add(node, "global statements are not allowed (module globals are shared by every episode)")

    def visit_Try(self, node: ast.Try) -> None:
        for stmt in node.finalbody:
            if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            for inner in _walk_same_function(stmt):
                if isinstance(inner, ast.Return) or (
                    isinstance(inner, (ast.Break, ast.Continue)) and not _inside_loop(stmt, inner)
                ):
                    self.add(
                        inner,
                        f"'{type(inner).__name__.lower()}' inside 'finally' is not allowed "
                        "(it silently discards the exception in flight)",
                    )
        self.generic_visit(node)

    def visit_ExceptHandler(self, node: ast.ExceptHandler) -> None:
        if node.type is None:
            self.add(node, "bare 'except:' is not allowed; catch Exception or a specific error")
        if node.name:
            self.bind(node, node.name)
        self.generic_visit(node)

    def visit_arg(self, node: ast.arg) -> None:
        self.bind(node, node.arg)

    def visit_Name(self, node: ast.Name) -> None:
        if isinstance(node.ctx, ast.Load):
            self.loads.append((node.id, node.lineno))
        else:
            self.bind(node, node.id)

    def visit_Attribute(self, node: ast.Attribute) -> None:
        if node.attr in BLOCKED_ATTRS:
            self.add(node, f"attribute {node.attr!r} is not allowed")
        elif node.attr in CLOCK_ATTRS:
            self.add(node, f"{node.attr}() is not allowed: times and ids must derive from the state, not the clock")
        self.generic_visit(node)


def _walk_same_function(node: ast.AST) -> list[ast.AST]:
    """Nodes under `node`, not descending into nested functions or lambdas."""
    out, stack = [], [node]
    while stack:
        current = stack.pop()
        out.append(current)
        for child in ast.iter_child_nodes(current):
            if not isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
                stack.append(child)
    return out


def _inside_loop(top: ast.AST, target: ast.AST) -> bool:
    """Whether `target` (a break/continue under `top`) belongs to a loop that is itself under `top`."""
    for loop in _walk_same_function(top):
        if isinstance(loop, (ast.For, ast.While)):
            body = [n for stmt in loop.body + loop.orelse for n in _walk_same_function(stmt)]
            if any(n is target for n in body):
                return True
    return False


class _Rewriter(ast.NodeTransformer):
    def __init__(self) -> None:
        self.counter = itertools.count(1)

    def visit_FunctionDef(self, node: ast.FunctionDef) -> ast.AST:
        node.returns = None
        for arg in node.args.posonlyargs + node.args.args + node.args.kwonlyargs:
            arg.annotation = None
        for arg in (node.args.vararg, node.args.kwarg):
            if arg is not None:
                arg.annotation = None
        self.generic_visit(node)
        return node

    def visit_AnnAssign(self, node: ast.AnnAssign) -> ast.AST:
        if node.value is None:
            return ast.copy_location(ast.Pass(), node)
        return ast.copy_location(ast.Assign(targets=[node.target], value=self.visit(node.value)), node)

    def visit_AugAssign(self, node: ast.AugAssign) -> Any:
        self.generic_visit(node)
        target = node.target
        if not isinstance(target, ast.Subscript) or isinstance(target.slice, ast.Slice):
            return node  # names stay (RestrictedPython guards them); attributes are refused by it
        out: list[ast.stmt] = []
        container, key = target.value, target.slice
        if not (isinstance(container, ast.Name) and isinstance(key, (ast.Name, ast.Constant))):
            n = next(self.counter)
            obj_name, key_name = f"{RESERVED_PREFIX}obj{n}", f"{RESERVED_PREFIX}key{n}"
            out.append(ast.Assign(targets=[ast.Name(obj_name, ast.Store())], value=container))
            out.append(ast.Assign(targets=[ast.Name(key_name, ast.Store())], value=key))
            container, key = ast.Name(obj_name, ast.Load()), ast.Name(key_name, ast.Load())
        read = ast.Subscript(value=_load(container), slice=_load(key), ctx=ast.Load())
        write = ast.Subscript(value=_load(container), slice=_load(key), ctx=ast.Store())
        out.append(ast.Assign(targets=[write], value=ast.BinOp(left=read, op=node.op, right=node.value)))
        for stmt in out:
            ast.copy_location(stmt, node)
        return out


def _load(node: ast.expr) -> ast.expr:
    """A fresh copy of a Name/Constant (or the original expression) usable as a load."""
    if isinstance(node, ast.Name):
        return ast.Name(node.id, ast.Load())
    if isinstance(node, ast.Constant):
        return ast.Constant(node.value)
    return node
