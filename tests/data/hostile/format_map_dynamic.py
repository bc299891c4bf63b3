# what: format_map reached through getattr
# expect: contain
# status: violation
# reason: access to attribute 'format_map' is not allowed
def attack(state, path=None, envvar=None):
    return getattr('{x}', 'format_' + 'map')({'x': state})
