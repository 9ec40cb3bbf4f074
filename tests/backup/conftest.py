# The tasks run in this process (the site is populated through the services, each finish rated
# after its commit): a fixture shared with the other folder.
from tests.upgrade.populated import tasks_in_process  # noqa: F401
