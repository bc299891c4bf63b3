# what: delete a runtime-provided name
# expect: refuse
# reason: module-level Delete statements are not allowed
del ToolError


def attack(state, path=None, envvar=None):
    return 1
