# what: loop forever while loading
# expect: refuse
# reason: module-level While statements are not allowed
while True:
    pass


def attack(state, path=None, envvar=None):
    return 1
