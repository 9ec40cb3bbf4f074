"""``manage.py site_import PATH``: load a ``site_export`` file into a fresh database, check it,
rebuild the ratings.

Run ``manage.py migrate`` first, with the release that wrote the file. Refused when the database
has rows already (``--force`` loads over them) or is at other migrations. The load and its check
(every table's rows and every score sheet against the file's digests) are one transaction;
then the ratings are rebuilt and compared with the file's (``--no-recompute`` leaves them to the
nightly recompute). Prints what ``site_check`` prints. docs/operations.md.
"""

from django.core.management.base import BaseCommand, CommandError

from scorekeeper.backup.site import BackupError, site_import, summary_lines


class Command(BaseCommand):
    help = "Load a site_export file into a fresh database, check it against the file, rebuild the ratings."

    def add_arguments(self, parser):
        parser.add_argument("path")
        parser.add_argument(
            "--force",
            action="store_true",
            help="load into a database that has rows already: the file's rows replace those with their ids",
        )
        parser.add_argument(
            "--no-recompute",
            dest="recompute",
            action="store_false",
            help="do not rebuild the ratings now (the nightly recompute will)",
        )

    def handle(self, *args, path, force, recompute, **options):
        try:
            summary = site_import(path=path, force=force, recompute=recompute)
        except BackupError as exc:
            raise CommandError(str(exc)) from exc
        for line in summary_lines(summary):
            self.stdout.write(line)
        ratings = "rebuilt and checked" if recompute else "not rebuilt (--no-recompute)"
        self.stderr.write(f"imported {path}: every table and sheet checked; ratings {ratings}")
