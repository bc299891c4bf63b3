# what: generator frame through getattr
# expect: contain
# status: violation
# reason: access to attribute 'gi_frame' is not allowed
def attack(state, path=None, envvar=None):
    g = (x for x in [1])
    return str(getattr(g, 'gi_' + 'frame'))
