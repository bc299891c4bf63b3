# what: attribute access through str.format
# expect: contain
# status: violation
# reason: format field {0.__class__} is not allowed
def attack(state, path=None, envvar=None):
    return '{0.__class__}'.format(state)
