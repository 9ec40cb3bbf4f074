"""One pagination for every list: ``?page=`` and ``?page_size=`` (at most 200).

Stricter than DRF's, which reads a ``page_size`` it cannot parse (``null``, ``0``, ``" 5"``) as
the default and a ``page`` such as ``" 2"`` or an empty one as a number: here a ``page_size``
that is not a positive integer in digits is a 400 and such a ``page`` a 404 (DRF's answer for
a page it has not), as the schema says. A ``page_size`` over 200 is still read as 200.
"""

from rest_framework import serializers
from rest_framework.exceptions import NotFound
from rest_framework.pagination import PageNumberPagination

_PAGE_SIZE = serializers.IntegerField(min_value=1)


def _digits(text: str) -> bool:
    return text.isascii() and text.isdigit()


class Pagination(PageNumberPagination):
    page_size = 50
    page_size_query_param = "page_size"
    max_page_size = 200

    def get_page_size(self, request):
        raw = request.query_params.get(self.page_size_query_param)
        if raw is None:
            return self.page_size
        try:
            if not _digits(raw):
                _PAGE_SIZE.fail("invalid")
            size = _PAGE_SIZE.run_validation(raw)
        except serializers.ValidationError as exc:
            raise serializers.ValidationError({self.page_size_query_param: exc.detail}) from None
        return min(size, self.max_page_size)

    def get_page_number(self, request, paginator):
        raw = request.query_params.get(self.page_query_param)
        if raw is None:
            return 1
        if raw in self.last_page_strings:
            return paginator.num_pages
        if not _digits(raw):
            raise NotFound(self.invalid_page_message.format(page_number=raw[:40], message=""))
        return raw
