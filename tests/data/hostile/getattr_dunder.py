# what: getattr with a computed dunder name
# expect: contain
# status: violation
# reason: access to attribute '__globals__' is not allowed
def attack(state, path=None, envvar=None):
    return str(getattr(attack, '__glob' + 'als__'))
