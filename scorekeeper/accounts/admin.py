from django.contrib import admin

from .models import Preference


@admin.register(Preference)
class PreferenceAdmin(admin.ModelAdmin):
    list_display = ["user", "language", "time_zone"]
    list_filter = ["language"]
    search_fields = ["user__username"]
    raw_id_fields = ["user"]
