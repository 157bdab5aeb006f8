"""The one exception type users see: a sentence saying what is wrong and what to do."""


class ZhikuError(Exception):
    """A problem the user can fix; the message says what and how."""


class BusyError(ZhikuError):
    """Another writer holds the index; retry when it has finished."""


class NotFoundError(ZhikuError):
    """Something asked for by id or name does not exist (for this caller)."""
