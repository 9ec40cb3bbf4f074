"""The admin lists each user's API tokens (django-rest-knox: one per device) on the user's page;
deleting one there signs that device out."""

from typing import TYPE_CHECKING

from django.contrib import admin
from django.contrib.auth import get_user_model
from django.contrib.auth.admin import UserAdmin
from knox.models import AuthToken


class AuthTokenInline(admin.TabularInline):
    model = AuthToken
    fk_name = "user"
    extra = 0
    fields = readonly_fields = ("token_key", "created", "expiry")
    verbose_name = "API token (one per device)"
    verbose_name_plural = "API tokens: the first characters of each key; delete one to sign that device out"

    def has_add_permission(self, request, obj=None):
        return False  # keys are made by signing in (POST /api/v1/auth/token) or manage.py token_create


User = get_user_model()
registered = admin.site._registry.get(User)
if TYPE_CHECKING:  # a base class must be static to mypy: the stock one stands for the registered one
    base = UserAdmin
else:
    base = type(registered) if registered is not None else UserAdmin
if registered is not None:
    admin.site.unregister(User)


@admin.register(User)
class UserWithTokensAdmin(base):
    inlines = [*getattr(base, "inlines", []), AuthTokenInline]
