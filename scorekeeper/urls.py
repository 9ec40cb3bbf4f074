from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path

from api.urls import urlpatterns as api_urlpatterns

urlpatterns = [
    *api_urlpatterns,  # /api/…, first: scoring apps' requests are most of the traffic
    path("admin/", admin.site.urls),
    path("i18n/", include("django.conf.urls.i18n")),  # set_language: the switcher on every page
    # Sign-in for the pages (scorers at the table); the API uses tokens.
    path(
        "accounts/login/",
        auth_views.LoginView.as_view(redirect_authenticated_user=True, next_page="home"),
        name="login",
    ),
    path("accounts/logout/", auth_views.LogoutView.as_view(next_page="home"), name="logout"),
    path("", include("scorekeeper.matches.urls")),
]

# The API answers unknown URLs and crashes in its JSON error shape; the pages keep Django's.
handler404 = "api.exceptions.api_not_found"
handler500 = "api.exceptions.api_server_error"
