"""``manage.py site_check``: what two sites are compared by, one line each: the migrations,
each carried table's row count and digest, the score sheets' digest (``--sheets``: each
match's), the ratings' digest, the work pending. Two sites that hold the same print the same
lines (``diff`` them); ``--file PATH`` compares this site with a ``site_export`` file instead.
docs/operations.md.
"""

from django.core.management.base import BaseCommand, CommandError

from scorekeeper.backup.site import BackupError, differences, read, site_summary, summary_lines


class Command(BaseCommand):
    help = "Print the counts and digests of every carried table, the score sheets and the ratings."

    def add_arguments(self, parser):
        parser.add_argument("--sheets", action="store_true", help="a line for each match's score sheet")
        parser.add_argument("--file", help="compare with this site_export file; exit 1 if they differ")

    def handle(self, *args, sheets, file, **options):
        summary = site_summary()
        for line in summary_lines(summary, every_sheet=sheets):
            self.stdout.write(line)
        if file is None:
            return
        try:
            document = read(file)
        except BackupError as exc:
            raise CommandError(str(exc)) from exc
        problems = differences({"migrations": document["migrations"], **document["check"]}, summary)
        if document["migrations"] != summary["migrations"]:
            problems.insert(0, "the migrations differ (the file is of another release)")
        if problems:
            raise CommandError(f"this site differs from {file}: " + "; ".join(problems))
        self.stderr.write(f"this site holds what {file} holds")
