from django.urls import include, path

from .views import clubs as views

urlpatterns = [
    path("", views.club_list, name="club-list"),
    path("<slug:slug>/", views.club_home, name="club-home"),
    path("<slug:slug>/matches/", views.club_matches, name="club-matches"),
    path("<slug:slug>/settings/", views.club_settings, name="club-settings"),
    path("<slug:slug>/members/", views.club_members, name="club-members"),
    path("<slug:slug>/members/<str:username>/role/", views.club_member_role, name="club-member-role"),
    path("<slug:slug>/members/<str:username>/remove/", views.club_member_remove, name="club-member-remove"),
    path("<slug:slug>/invitations/", views.club_invitations, name="club-invitations"),
    path(
        "<slug:slug>/invitations/<int:pk>/revoke/",
        views.club_invitation_revoke,
        name="club-invitation-revoke",
    ),
    path("<slug:slug>/requests/", views.club_requests, name="club-requests"),
    path("<slug:slug>/requests/<int:pk>/", views.club_request_decide, name="club-request-decide"),
    path("<slug:slug>/join/", views.club_join, name="club-join"),
    path("<slug:slug>/leave/", views.club_leave, name="club-leave"),
    path("<slug:slug>/events/", include("scorekeeper.events.urls")),  # a club's events (issue 34)
]
