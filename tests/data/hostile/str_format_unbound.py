# what: str.format taken from the class
# expect: contain
# status: violation
# reason: str.format on the class is not allowed
def attack(state, path=None, envvar=None):
    fmt = str.format
    return fmt('{0.__class__}', state)
