# what: the clock through getattr
# expect: contain
# status: violation
# reason: datetime now() is not available
import datetime


def attack(state, path=None, envvar=None):
    return getattr(datetime.datetime, 'no' + 'w')().isoformat()
