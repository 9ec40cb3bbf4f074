from django.urls import path

from . import views

urlpatterns = [
    path("settings/", views.preferences, name="preferences"),
    path("invited/", views.invited, name="account-invited"),
    path("delete/", views.account_delete, name="account-delete"),
]
