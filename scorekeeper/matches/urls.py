from django.urls import path

from .views import club, confirm, live, matches, offline

urlpatterns = [
    path("", matches.home, name="home"),
    path("sw.js", offline.service_worker, name="service-worker"),
    path("matches/", club.match_list, name="match-list"),
    path("matches/new/", matches.match_new, name="match-new"),
    path("matches/new/<slug:game>/", matches.match_new_game, name="match-new-game"),
    path("matches/<int:pk>/", matches.match_detail, name="match-detail"),
    path("matches/<int:pk>/hands/new/", matches.hand_new, name="hand-new"),
    path("matches/<int:pk>/hands/send/", offline.hand_send, name="hand-send"),
    path("matches/<int:pk>/hands/check/", live.hand_check, name="hand-check"),
    path("matches/<int:pk>/hands/<int:number>/", matches.hand_detail, name="hand-detail"),
    path("matches/<int:pk>/hands/<int:number>/correct/", matches.hand_correct, name="hand-correct"),
    path("matches/<int:pk>/hands/<int:number>/send/", offline.hand_send, name="hand-send-correction"),
    path("matches/<int:pk>/hands/<int:number>/check/", live.hand_check, name="hand-check-correction"),
    path("matches/<int:pk>/hands/<int:number>/history/", matches.hand_history, name="hand-history"),
    path("matches/<int:pk>/hands/<int:number>/answer/", confirm.hand_answer, name="hand-answer"),
    path(
        "matches/<int:pk>/players/<int:player>/code/",
        confirm.player_claim_code,
        name="player-claim-code",
    ),
    path("players/claim/", confirm.player_claim, name="player-claim"),
    path("matches/<int:pk>/void/", matches.match_void, name="match-void"),
    path("matches/<int:pk>/reopen/", matches.match_reopen, name="match-reopen"),
    path("matches/<int:pk>/scorers/", matches.match_scorer_add, name="match-scorer-add"),
]
