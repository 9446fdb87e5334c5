"""The libcst transformers behind ``syntax_versions.downgraded`` (imported only when needed)."""

from __future__ import annotations

import libcst as cst


class WithoutTypeParameters(cst.CSTTransformer):
    """PEP 695: ``type X[T] = v`` -> ``X = v``; ``def f[T](...)`` -> ``def f(...)``."""

    def leave_TypeAlias(self, original: cst.TypeAlias, updated: cst.TypeAlias) -> cst.Assign:
        return cst.Assign(targets=[cst.AssignTarget(updated.name)], value=updated.value, semicolon=updated.semicolon)

    def leave_FunctionDef(self, original: cst.FunctionDef, updated: cst.FunctionDef) -> cst.FunctionDef:
        if updated.type_parameters is None:
            return updated
        return updated.with_changes(type_parameters=None, whitespace_after_type_parameters=cst.SimpleWhitespace(""))

    def leave_ClassDef(self, original: cst.ClassDef, updated: cst.ClassDef) -> cst.ClassDef:
        if updated.type_parameters is None:
            return updated
        return updated.with_changes(type_parameters=None, whitespace_after_type_parameters=cst.SimpleWhitespace(""))


class PlainFStrings(cst.CSTTransformer):
    """PEP 701 f-strings (quotes reused inside) -> a plain string with the same line breaks.
    The first pass reads no string contents; an f-string holding a ``lambda`` is kept so the
    lambdas keep their order."""

    def leave_FormattedString(self, original: cst.FormattedString, updated: cst.FormattedString) -> cst.BaseExpression:
        code = cst.Module(body=[]).code_for_node(original)
        if "lambda" in code:
            return updated
        lines = code.count("\n")
        return cst.SimpleString('"""' + "\n" * lines + '"""') if lines else cst.SimpleString('""')
