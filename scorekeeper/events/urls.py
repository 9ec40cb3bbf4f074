"""A club's events, mounted under ``/clubs/<slug>/events/`` (``matches/club_urls.py``)."""

from django.urls import path

from . import views

urlpatterns = [
    path("", views.event_list, name="event-list"),
    path("<int:pk>/", views.event_detail, name="event-detail"),
    path("<int:pk>/live/", views.event_live, name="event-live"),
    path("<int:pk>/projector/", views.event_projector, name="event-projector"),
    path("<int:pk>/report/", views.event_report, name="event-report"),
    path("<int:pk>/report.csv", views.event_report_csv, name="event-report-csv"),
    path("<int:pk>/entrants/", views.event_entrant_add, name="event-entrant-add"),
    path(
        "<int:pk>/entrants/<int:player>/withdraw/",
        views.event_entrant_withdraw,
        name="event-entrant-withdraw",
    ),
    path("<int:pk>/pair/", views.event_pair, name="event-pair"),
    path("<int:pk>/rounds/<int:number>/swap/", views.event_swap, name="event-swap"),
    path("<int:pk>/tables/<int:table>/forfeit/", views.event_forfeit, name="event-forfeit"),
    path("<int:pk>/finish/", views.event_finish, name="event-finish"),
]
