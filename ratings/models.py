from __future__ import annotations

from django.db import models


class RatingChange(models.Model):
    """One player's rating before and after one finished match of one game (append-only)."""

    player = models.ForeignKey("matches.Player", on_delete=models.PROTECT, related_name="rating_changes")
    match = models.ForeignKey("matches.Match", on_delete=models.PROTECT, related_name="rating_changes")
    game = models.CharField(max_length=32)
    #: The player's place in the match (competition ranking, spec 1.1).
    placement = models.PositiveSmallIntegerField()
    before = models.FloatField()
    after = models.FloatField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.UniqueConstraint(fields=["player", "match"], name="rating_change_once_per_match"),
            models.CheckConstraint(condition=models.Q(placement__gte=1), name="rating_placement_from_one"),
        ]
        indexes = [models.Index(fields=["game", "player", "-created_at"], name="rating_history_idx")]

    def __str__(self) -> str:
        return f"{self.player} {self.game}: {self.before:.0f} → {self.after:.0f}"

    @property
    def delta(self) -> float:
        return self.after - self.before
