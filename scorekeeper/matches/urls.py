from django.urls import path

from . import views, views_club, views_confirm, views_live, views_offline

urlpatterns = [
    path("", views.home, name="home"),
    path("sw.js", views_offline.service_worker, name="service-worker"),
    path("matches/", views_club.match_list, name="match-list"),
    path("matches/new/", views.match_new, name="match-new"),
    path("matches/new/<slug:game>/", views.match_new_game, name="match-new-game"),
    path("matches/<int:pk>/", views.match_detail, name="match-detail"),
    path("matches/<int:pk>/hands/new/", views.hand_new, name="hand-new"),
    path("matches/<int:pk>/hands/send/", views_offline.hand_send, name="hand-send"),
    path("matches/<int:pk>/hands/check/", views_live.hand_check, name="hand-check"),
    path("matches/<int:pk>/hands/<int:number>/", views.hand_detail, name="hand-detail"),
    path("matches/<int:pk>/hands/<int:number>/correct/", views.hand_correct, name="hand-correct"),
    path("matches/<int:pk>/hands/<int:number>/send/", views_offline.hand_send, name="hand-send-correction"),
    path("matches/<int:pk>/hands/<int:number>/check/", views_live.hand_check, name="hand-check-correction"),
    path("matches/<int:pk>/hands/<int:number>/history/", views.hand_history, name="hand-history"),
    path("matches/<int:pk>/hands/<int:number>/answer/", views_confirm.hand_answer, name="hand-answer"),
    path(
        "matches/<int:pk>/players/<int:player>/code/",
        views_confirm.player_claim_code,
        name="player-claim-code",
    ),
    path("players/claim/", views_confirm.player_claim, name="player-claim"),
    path("matches/<int:pk>/void/", views.match_void, name="match-void"),
    path("matches/<int:pk>/reopen/", views.match_reopen, name="match-reopen"),
    path("matches/<int:pk>/scorers/", views.match_scorer_add, name="match-scorer-add"),
]
