"""``{% fixed %} … {% endfixed %}``: a fragment of a page that is the same for every request in a
language, rendered once per language and process and then given back as it was written.

Every page draws the same header, head links and offline banner: some thirty ``{% translate %}``,
``{% url %}`` and ``{% static %}`` tags, each through a lazy string, the resolver or the
manifest, a few thousand Python calls a page for words and addresses that only change with the
language. Inside the block only what cannot depend on the request is allowed, and the template
is refused when it holds anything else (a variable of the page, the CSRF token, an include …),
so a fragment cannot carry one reader's data to another:

- text and comments;
- ``{% translate "…" %}`` and ``{% blocktranslate %}`` of literal words (no variable, no
  ``as``, no count);
- ``{% static "…" %}`` and ``{% url "name" "literal" … %}`` (no ``as``, no namespace: a
  namespaced name depends on the request's current app);
- ``{% get_current_language as X %}`` and ``{% get_site_languages as X %}`` (this library's:
  ``settings.LANGUAGES`` as the i18n context processor gives it, the names untranslated), and
  ``{% for %}``, ``{% if %}`` and ``{{ … }}`` over those names and the loop's own (the language
  switcher's options).

The output is keyed by what such a fragment depends on: the active language, the URL prefix and
urlconf of the request, and the context's autoescape and localisation switches. A process loads
its translation catalogs once (Django reloads them only when a setting changes, and then this
memo is dropped as well, see ``_forget``), so a memo cannot fall out of date within a process.
The names the block binds stay inside it (it renders in a context level of its own)."""

from __future__ import annotations

from django import template
from django.conf import settings
from django.core.signals import setting_changed
from django.dispatch import receiver
from django.template import Node, NodeList, TemplateSyntaxError
from django.template.base import FilterExpression, TextNode, TokenType, Variable, VariableNode
from django.template.defaulttags import CommentNode, ForNode, IfNode, TemplateLiteral, URLNode
from django.templatetags.i18n import BlockTranslateNode, GetCurrentLanguageNode, TranslateNode
from django.templatetags.static import StaticNode
from django.urls import get_script_prefix, get_urlconf
from django.utils import translation

register = template.Library()

#: Bumped when a setting changes (the tests' override_settings): every memo made before is dropped.
_generation = 0


@receiver(setting_changed)
def _forget(**kwargs) -> None:
    global _generation
    _generation += 1


class FixedNode(Node):
    child_nodelists = ("nodelist",)

    def __init__(self, nodelist: NodeList):
        self.nodelist = nodelist
        self.generation = _generation
        self.rendered: dict[tuple, str] = {}

    def render(self, context) -> str:
        if self.generation != _generation:
            self.rendered, self.generation = {}, _generation
        key = (
            translation.get_language(),
            get_script_prefix(),
            get_urlconf(),
            context.autoescape,
            context.use_l10n,
        )
        found = self.rendered.get(key)
        if found is None:
            with context.push():
                found = self.rendered[key] = self.nodelist.render(context)
        return found


def _literal(expression: FilterExpression | None, bound: frozenset[str]) -> bool:
    """A value the request cannot change: a literal, or a name the block bound itself, and
    filters of such values."""
    if expression is None:
        return True
    if not isinstance(expression, FilterExpression):
        return False
    var = expression.var
    if isinstance(var, Variable) and var.lookups is not None and var.lookups[0] not in bound:
        return False
    return all(_literal(arg, bound) for _, args in expression.filters for _, arg in args)


def _condition(token, bound: frozenset[str]) -> bool:
    """An ``{% if %}``'s condition: its operands (``first``, ``second``) down to its values."""
    if token is None:
        return True
    if isinstance(token, TemplateLiteral):
        # The stubs type a TemplateLiteral's value as a Python value; {% if %} compiles a filter.
        return _literal(token.value, bound)  # type: ignore[arg-type]
    return _condition(token.first, bound) and _condition(token.second, bound)


def _check(nodelist: NodeList, bound: frozenset[str]) -> frozenset[str]:
    """Raise TemplateSyntaxError for anything in ``nodelist`` that may depend on the request;
    the names bound, in order, by the language tags."""
    for node in nodelist:
        if isinstance(node, TextNode | CommentNode):
            continue
        if isinstance(node, GetCurrentLanguageNode | SiteLanguagesNode):
            bound = bound | {node.variable}
            continue
        if isinstance(node, TranslateNode):
            ok = node.asvar is None and _literal(node.filter_expression, frozenset())
            ok = ok and _literal(node.message_context, frozenset())
        elif isinstance(node, BlockTranslateNode):
            tokens = list(node.singular) + list(node.plural or [])
            ok = not node.extra_context and node.counter is None and node.asvar is None
            ok = ok and all(token.token_type == TokenType.TEXT for token in tokens)
            ok = ok and _literal(node.message_context, frozenset())
        elif isinstance(node, StaticNode):
            ok = node.varname is None and _literal(node.path, frozenset())
        elif isinstance(node, URLNode):
            ok = node.asvar is None and _literal(node.view_name, frozenset())
            ok = ok and ":" not in str(node.view_name.var)
            ok = ok and all(_literal(arg, frozenset()) for arg in [*node.args, *node.kwargs.values()])
        elif isinstance(node, VariableNode):
            ok = _literal(node.filter_expression, bound)
        elif isinstance(node, ForNode):
            # The stubs allow a str and lists of strings; {% for %} compiles its sequence into a
            # filter expression and parses its blocks into NodeLists.
            ok = _literal(node.sequence, bound)  # type: ignore[arg-type]
            if ok:
                _check(node.nodelist_loop, bound | set(node.loopvars) | {"forloop"})  # type: ignore[arg-type]
                _check(node.nodelist_empty, bound)  # type: ignore[arg-type]
        elif isinstance(node, IfNode):
            ok = all(_condition(condition, bound) for condition, _ in node.conditions_nodelists)
            if ok:
                for _, branch in node.conditions_nodelists:
                    _check(branch, bound)
        else:
            ok = False
        if not ok:
            raise TemplateSyntaxError(
                f"{{% fixed %}} holds {node!r}, which may depend on the request: keep it out of the block"
            )
    return bound


class SiteLanguagesNode(Node):
    def __init__(self, variable: str):
        self.variable = variable

    def render(self, context) -> str:
        context[self.variable] = settings.LANGUAGES
        return ""


@register.tag
def get_site_languages(parser, token) -> SiteLanguagesNode:
    """``{% get_site_languages as X %}``: the site's languages, (code, name) as settings has them."""
    bits = token.split_contents()
    if len(bits) != 3 or bits[1] != "as":
        raise TemplateSyntaxError("usage: {% get_site_languages as NAME %}")
    return SiteLanguagesNode(bits[2])


@register.tag
def fixed(parser, token) -> FixedNode:
    if len(token.split_contents()) != 1:
        raise TemplateSyntaxError("{% fixed %} takes no arguments")
    nodelist = parser.parse(("endfixed",))
    parser.delete_first_token()
    _check(nodelist, frozenset())
    return FixedNode(nodelist)
