# what: str.format_map
# expect: refuse
# reason: attribute 'format_map' is not allowed
def attack(state, path=None, envvar=None):
    return '{x.__class__}'.format_map({'x': state})
