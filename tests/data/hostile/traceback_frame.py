# what: traceback frames to reach globals
# expect: refuse
# reason: "__traceback__" is an invalid attribute name
def attack(state, path=None, envvar=None):
    try:
        1 / 0
    except Exception as err:
        return str(err.__traceback__.tb_frame.f_back.f_globals)
