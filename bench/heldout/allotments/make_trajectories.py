"""Seeded generator of office-desk sessions for the Fernbrook Allotment Society.

Written for forgegym. MIT License. Standard library only.

Each session is played by a desk agent against the real system (adapter.py) from data.json and kept
only if exactly the intended calls are refused, then checked again by a fresh replay.
Writes trajectories.jsonl next to this file; running it twice writes the same bytes.
"""

import collections
import datetime as dt
import json
import os
import random

import adapter

SEED = 20250412
N_SESSIONS = 78
HERE = os.path.dirname(os.path.abspath(__file__))
TODAY = adapter.BUSINESS_DATE
MONTHS = "January February March April May June July August September October November December".split()
INSPECTORS = ["Gwendolyn Marsh", "Barnaby Tullis", "Odile Fenwick"]
PASS_NOTES = [
    "Beds dug over and paths clear.",
    "Well cultivated, early potatoes in.",
    "Tidy; compost bin covered.",
    "Seedlings under fleece, edges trimmed.",
]
FAIL_NOTES = [
    "Knee-high weeds across most of the plot.",
    "No cultivation this spring; brambles spreading to the path.",
    "Rubbish and old carpet left on the beds.",
    "Couch grass over half the plot.",
]


def human(d):
    if isinstance(d, str):
        d = dt.date.fromisoformat(d)
    return "%d %s" % (d.day, MONTHS[d.month - 1])


class Skip(Exception):
    pass


class Session:
    def __init__(self, data):
        self.env = adapter.make()
        self.env.reset(data)
        self.calls = []
        self.expect = []

    def do(self, name, args, ok=True):
        r = self.env.call(name, args)
        self.calls.append({"name": name, "arguments": args})
        self.expect.append(ok)
        if r["ok"] != ok:
            raise Skip("%s %s -> %s" % (name, args, r["output"]))
        return r["output"]


class Gen:
    def __init__(self, rng, data):
        self.rng = rng
        self.data = data
        self.ph = data["plotholders"]
        self.plots = data["plots"]
        self.ten = data["tenancies"]
        self.wl = data["waiting_list"]
        self.tools = data["tools"]

    # -------------------------------------------------------------- helpers
    def say(self, *variants):
        return self.rng.choice(variants)

    def name(self, p):
        return "%s %s" % (p["first_name"], p["last_name"])

    def holder(self, pred):
        ids = [k for k in sorted(self.ph) if pred(self.ph[k])]
        if not ids:
            raise Skip("no plotholder")
        return self.ph[self.rng.choice(ids)]

    def active_tenancies(self, pid):
        return [t for k, t in sorted(self.ten.items()) if t["plotholder_id"] == pid and t["status"] == "active"]

    def queue(self, site):
        rows = [e for e in self.wl.values() if e["status"] == "waiting" and e["preferred_site"] == site]
        return sorted(rows, key=lambda e: e["position"])

    def waiting_sites(self, pid):
        return [e["preferred_site"] for e in self.wl.values() if e["status"] == "waiting" and e["plotholder_id"] == pid]

    def ident(self, s, p):
        """Look the member up the way they introduced themselves; returns the phrase they used."""
        if self.rng.random() < 0.35:
            s.do("get_plotholder", {"membership_number": p["membership_number"]})
            return "membership number %s" % p["membership_number"]
        s.do("get_plotholder", {"plotholder_id": p["plotholder_id"]})
        return p["plotholder_id"]

    def vacant(self, site=None):
        return [
            p for k, p in sorted(self.plots.items()) if p["status"] == "vacant" and (site is None or p["site"] == site)
        ]

    def can_borrow(self, p):
        overdue = any(dt.date.fromisoformat(ln["due_on"]) < TODAY for ln in p["loans"])
        limit = 3 if p["volunteer_hours"] >= 10 else 2
        return (
            p["status"] == "active"
            and self.active_tenancies(p["plotholder_id"])
            and not overdue
            and len(p["loans"]) < limit
        )

    def free_tools(self):
        return [t for k, t in sorted(self.tools.items()) if t["status"] == "available"]

    # -------------------------------------------------------------- sessions that succeed
    def s_profile(self, s):
        p = self.holder(lambda p: True)
        who = self.ident(s, p)
        if self.rng.random() < 0.6:
            s.do("list_tenancies", {"plotholder_id": p["plotholder_id"]})
            return self.say(
                "Hello, this is %s, %s. Could you tell me my account balance and which plots I've rented "
                "from the society over the years?" % (self.name(p), who),
                "%s here (%s). Am I still down as a concession member, and what tenancies do you have on "
                "file for me?" % (self.name(p), who),
            )
        return self.say(
            "Hi, it's %s, %s. How many volunteer hours have I got logged this season?" % (self.name(p), who),
            "This is %s (%s). What's the credit on my account, and have I got anything out from the "
            "tool shed?" % (self.name(p), who),
            "Hello, %s calling, %s. Is my membership still active?" % (self.name(p), who),
        )

    def s_my_tenancy(self, s):
        p = self.holder(lambda p: self.active_tenancies(p["plotholder_id"]))
        rows = s.do("list_tenancies", {"plotholder_id": p["plotholder_id"], "status": "active"})
        t = self.rng.choice(rows)
        s.do("get_tenancy", {"tenancy_id": t["tenancy_id"]})
        if self.rng.random() < 0.35:
            s.do("get_plot", {"plot_id": t["plot_id"]})
            return (
                "%s, %s. Is my plot %s still marked as overgrown after the last inspection, and how many "
                "warnings have I had?" % (self.name(p), p["plotholder_id"], t["plot_id"])
            )
        return self.say(
            "I'm %s, plotholder %s. When was my plot %s last inspected and did it pass?"
            % (self.name(p), p["plotholder_id"], t["plot_id"]),
            "Hi, %s here (%s). Have I paid this year's rent in full, and have I had any warnings?"
            % (self.name(p), p["plotholder_id"]),
        )

    def s_history(self, s):
        p = self.holder(lambda p: any(t["plotholder_id"] == p["plotholder_id"] for t in self.ten.values()))
        year = self.rng.choice([2024, 2025])
        rows = s.do("list_tenancies", {"plotholder_id": p["plotholder_id"], "season_year": year})
        if rows and self.rng.random() < 0.6:
            t = rows[0]
            s.do("get_tenancy", {"tenancy_id": t["tenancy_id"]})
            return (
                "This is %s, %s. Which plot did I have in the %d season, and what did the inspectors say about it?"
                % (
                    self.name(p),
                    p["plotholder_id"],
                    year,
                )
            )
        return "%s here, plotholder %s. Did I have a tenancy with you in %d?" % (
            self.name(p),
            p["plotholder_id"],
            year,
        )

    def s_plot_info(self, s):
        plot = self.plots[self.rng.choice(sorted(self.plots))]
        out = s.do("get_plot", {"plot_id": plot["plot_id"]})
        if out["current_tenancy_id"] and self.rng.random() < 0.5:
            s.do("get_tenancy", {"tenancy_id": out["current_tenancy_id"]})
            return (
                "I'm on the committee. Who's got plot %s at the moment and how did their last inspection go?"
                % plot["plot_id"]
            )
        return self.say(
            "What's the state of plot %s? Is it free, and does it have water?" % plot["plot_id"],
            "How big is plot %s at %s, and what's the rate per square metre?" % (plot["plot_id"], plot["site"]),
        )

    def s_search(self, s):
        site = self.rng.choice(adapter.SITES)
        args = {"site": site}
        if self.rng.random() < 0.7:
            args["status"] = "vacant"
        if self.rng.random() < 0.4:
            args["water_access"] = True
        if self.rng.random() < 0.4:
            args["min_size_sqm"] = self.rng.choice([50, 100, 120])
        rows = s.do("search_plots", args)
        priced = False
        if rows and self.rng.random() < 0.5:
            s.do("quote_rent", {"plot_id": rows[0]["plot_id"]})
            priced = True
        want = []
        if "status" in args:
            want.append("free")
        if args.get("water_access"):
            want.append("with water")
        if "min_size_sqm" in args:
            want.append("of at least %d square metres" % args["min_size_sqm"])
        text = "Are there any plots at %s%s?" % (site, (" " + " ".join(want)) if want else "")
        if priced:
            text += " What would the first one cost at the standard rate?"
        elif rows and self.rng.random() < 0.5:
            plot = rows[0]
            s.do("get_plot", {"plot_id": plot["plot_id"]})
            text += " If so, tell me more about the first one."
        return text

    def s_search_quote(self, s):
        p = self.holder(lambda p: p["status"] == "active")
        args = {"status": "vacant"}
        if self.rng.random() < 0.5:
            args["water_access"] = True
        else:
            args["min_size_sqm"] = self.rng.choice([50, 100])
        rows = s.do("search_plots", args)
        plot = self.rng.choice(rows)
        s.do("quote_rent", {"plot_id": plot["plot_id"], "plotholder_id": p["plotholder_id"]})
        what = (
            "with water" if args.get("water_access") else "of at least %d square metres" % args.get("min_size_sqm", 0)
        )
        return (
            "Hello, %s here (%s). I'm looking for a vacant plot %s anywhere. What's free, and what would %s "
            "cost me for the year?" % (self.name(p), p["plotholder_id"], what, plot["plot_id"])
        )

    def s_quote_later(self, s):
        p = self.holder(lambda p: p["status"] == "active" and not self.active_tenancies(p["plotholder_id"]))
        plot = self.rng.choice(self.vacant())
        start = dt.date(2025, self.rng.choice([5, 6, 7, 8, 9]), self.rng.choice([1, 15]))
        s.do("get_plotholder", {"plotholder_id": p["plotholder_id"]})
        s.do(
            "quote_rent",
            {"plot_id": plot["plot_id"], "plotholder_id": p["plotholder_id"], "start_date": start.isoformat()},
        )
        if self.rng.random() < 0.4:
            s.do("quote_rent", {"plot_id": plot["plot_id"], "plotholder_id": p["plotholder_id"]})
            return "I'm %s (%s). What would plot %s cost if I started today, compared with starting on %s?" % (
                self.name(p),
                p["plotholder_id"],
                plot["plot_id"],
                human(start),
            )
        return self.say(
            "I'm %s (%s). If I took plot %s from %s, how much would the rent be?"
            % (self.name(p), p["plotholder_id"], plot["plot_id"], human(start)),
            "%s, member %s. Could you price plot %s for me starting %s? I've heard it's cheaper later in the year."
            % (self.name(p), p["plotholder_id"], plot["plot_id"], human(start)),
        )

    def s_quote_plain(self, s):
        plot = self.plots[self.rng.choice(sorted(self.plots))]
        s.do("get_plot", {"plot_id": plot["plot_id"]})
        s.do("quote_rent", {"plot_id": plot["plot_id"]})
        return "I'm not a member yet. How big is plot %s and what's the standard annual rent on it?" % plot["plot_id"]

    def s_let_queue(self, s):
        site = self.rng.choice(["Northfield", "Mill Lane"])
        head = self.queue(site)[0]
        p = self.ph[head["plotholder_id"]]
        who = self.ident(s, p)
        rows = s.do("search_plots", {"site": site, "status": "vacant"})
        plot = self.rng.choice(rows)
        s.do("quote_rent", {"plot_id": plot["plot_id"], "plotholder_id": p["plotholder_id"]})
        use = p["credit"] > 0 and self.rng.random() < 0.6
        args = {"plotholder_id": p["plotholder_id"], "plot_id": plot["plot_id"]}
        if use:
            args["use_credit"] = True
        s.do("let_plot", args)
        return (
            "Hello, %s here, %s. I got a letter saying I'm top of the %s waiting list. What's free there? "
            "I'd like to take %s if the price is right%s."
            % (
                self.name(p),
                who,
                site,
                plot["plot_id"],
                ", and please use the credit on my account" if use else "",
            )
        )

    def s_let_open(self, s):
        p = self.holder(
            lambda p: (
                p["status"] == "active"
                and not self.active_tenancies(p["plotholder_id"])
                and p["plotholder_id"] in {e["plotholder_id"] for e in self.wl.values()}
            )
        )
        plot = self.rng.choice(self.vacant("Orchard Corner"))
        quote = {"plot_id": plot["plot_id"], "plotholder_id": p["plotholder_id"]}
        args = {"plotholder_id": p["plotholder_id"], "plot_id": plot["plot_id"]}
        later = self.rng.random() < 0.3
        if later:
            start = dt.date(2025, self.rng.choice([5, 7]), 1)
            quote["start_date"] = args["start_date"] = start.isoformat()
        s.do("quote_rent", quote)
        s.do("let_plot", args)
        return (
            "I'm %s (%s). I've been waiting for %s, but I'd happily take %s at Orchard Corner instead%s. "
            "How much is it? Go ahead and let it to me."
            % (
                self.name(p),
                p["plotholder_id"],
                " and ".join(self.waiting_sites(p["plotholder_id"])),
                plot["plot_id"],
                " from %s" % human(start) if later else "",
            )
        )

    def s_second_plot(self, s):
        p = self.ph["PH-1006"]
        s.do("get_plotholder", {"plotholder_id": p["plotholder_id"]})
        s.do("search_plots", {"site": "Orchard Corner", "status": "vacant"})
        s.do("quote_rent", {"plot_id": "P-112", "plotholder_id": p["plotholder_id"]})
        use = self.rng.random() < 0.5
        args = {"plotholder_id": p["plotholder_id"], "plot_id": "P-112"}
        if use:
            args["use_credit"] = True
        s.do("let_plot", args)
        return (
            "Rafferty Quayle, PH-1006. I've done plenty of work days this year, so I believe I can have a small "
            "second plot. What's going at Orchard Corner? I'd like P-112%s."
            % (", paid from my credit" if use else "; send me the invoice")
        )

    def s_inspect(self, s):
        t = self.rng.choice(
            [
                t
                for k, t in sorted(self.ten.items())
                if t["status"] == "active" and not any(i["date"] == TODAY.isoformat() for i in t["inspections"])
            ]
        )
        who = self.rng.choice(INSPECTORS)
        result = "fail" if self.rng.random() < 0.35 else "pass"
        note = self.rng.choice(FAIL_NOTES if result == "fail" else PASS_NOTES)
        s.do("get_tenancy", {"tenancy_id": t["tenancy_id"]})
        s.do("record_inspection", {"tenancy_id": t["tenancy_id"], "result": result, "inspector": who, "notes": note})
        text = "%s from the committee. I've just walked plot %s under tenancy %s: it's a %s. Notes: %s" % (
            who,
            t["plot_id"],
            t["tenancy_id"],
            result,
            note,
        )
        if self.rng.random() < 0.4:
            s.do("get_plot", {"plot_id": t["plot_id"]})
            text += " What does the plot's status show now?"
        return text

    def s_inspect_clear(self, s):
        t = self.rng.choice([self.ten["T-2007"], self.ten["T-2011"]])
        who = self.rng.choice(INSPECTORS)
        s.do("get_plot", {"plot_id": t["plot_id"]})
        s.do(
            "record_inspection",
            {
                "tenancy_id": t["tenancy_id"],
                "result": "pass",
                "inspector": who,
                "notes": "Cleared and dug over since the last visit.",
            },
        )
        return (
            "It's %s. Plot %s has been cleared at last, so please record a pass on tenancy %s and make sure "
            "the plot isn't listed as overgrown any more." % (who, t["plot_id"], t["tenancy_id"])
        )

    def s_third_warning(self, s):
        who = self.rng.choice(INSPECTORS)
        s.do("get_tenancy", {"tenancy_id": "T-2011"})
        s.do(
            "record_inspection",
            {"tenancy_id": "T-2011", "result": "fail", "inspector": who, "notes": self.rng.choice(FAIL_NOTES)},
        )
        return (
            "%s here. P-111 on tenancy T-2011 has failed again today. Record it, and tell me whether that "
            "means notice to quit." % who
        )

    def s_end(self, s):
        t = self.rng.choice([self.ten[k] for k in ("T-2007", "T-2008", "T-2011", "T-2013")])
        p = self.ph[t["plotholder_id"]]
        if self.rng.random() < 0.5:
            s.do("list_tenancies", {"plotholder_id": p["plotholder_id"], "status": "active"})
        else:
            s.do("get_tenancy", {"tenancy_id": t["tenancy_id"]})
        reason = self.rng.choice(["Moving away", "Health reasons", "Not enough time this year"])
        s.do("end_tenancy", {"tenancy_id": t["tenancy_id"], "reason": reason})
        text = "I'm %s, %s. I need to give up plot %s (%s). %s. Will I get any rent back?" % (
            self.name(p),
            p["plotholder_id"],
            t["plot_id"],
            t["tenancy_id"],
            reason,
        )
        if self.rng.random() < 0.5:
            s.do("get_plotholder", {"plotholder_id": p["plotholder_id"]})
            text += " And what's my account balance after that?"
        return text

    def s_return_then_end(self, s):
        pid = self.rng.choice(["PH-1006", "PH-1002", "PH-1003"])
        p = self.ph[pid]
        s.do("get_plotholder", {"plotholder_id": pid})
        for ln in p["loans"]:
            s.do("return_tool", {"loan_id": ln["loan_id"]})
        t = self.active_tenancies(pid)[0]
        s.do("end_tenancy", {"tenancy_id": t["tenancy_id"], "reason": "Giving up the plot"})
        tools = " and ".join(ln["tool_name"].lower() for ln in p["loans"])
        return "This is %s (%s). I've brought back the %s. Once %s checked in, please end my tenancy on %s." % (
            self.name(p),
            pid,
            tools,
            "they're" if len(p["loans"]) > 1 else "it's",
            t["plot_id"],
        )

    def s_lend(self, s):
        p = self.holder(self.can_borrow)
        tool = self.rng.choice(self.free_tools())
        who = self.ident(s, p)
        args = {"plotholder_id": p["plotholder_id"], "tool_id": tool["tool_id"]}
        days = None
        if self.rng.random() < 0.5:
            days = self.rng.randint(1, tool["max_loan_days"])
            args["days"] = days
        s.do("lend_tool", args)
        text = "Hi, %s, %s. Can I borrow the %s (%s)%s?" % (
            self.name(p),
            who,
            tool["name"].lower(),
            tool["tool_id"],
            " for %d day%s" % (days, "s" if days > 1 else "") if days else " for as long as I'm allowed",
        )
        limit = 3 if p["volunteer_hours"] >= 10 else 2
        if len(p["loans"]) + 1 < limit and self.rng.random() < 0.5:
            other = self.rng.choice([t for t in self.free_tools() if t["tool_id"] != tool["tool_id"]])
            s.do("lend_tool", {"plotholder_id": p["plotholder_id"], "tool_id": other["tool_id"]})
            text += " I'll take the %s as well." % other["name"].lower()
        return text

    def s_return(self, s):
        p = self.holder(lambda p: p["loans"])
        loan = self.rng.choice(p["loans"])
        s.do("get_plotholder", {"plotholder_id": p["plotholder_id"]})
        if len(p["loans"]) > 1 and self.rng.random() < 0.6:
            for ln in p["loans"]:
                s.do("return_tool", {"loan_id": ln["loan_id"]})
            return "%s, %s. I'm bringing back everything I borrowed: the %s. Do I owe anything?" % (
                self.name(p),
                p["plotholder_id"],
                " and the ".join(ln["tool_name"].lower() for ln in p["loans"]),
            )
        damaged = self.rng.random() < 0.25
        args = {"loan_id": loan["loan_id"]}
        if damaged:
            args["condition"] = "damaged"
        s.do("return_tool", args)
        return "%s here (%s). I'm returning the %s%s. Is there anything to pay?" % (
            self.name(p),
            p["plotholder_id"],
            loan["tool_name"].lower(),
            "; I'm afraid it got damaged" if damaged else "",
        )

    def s_return_and_borrow(self, s):
        p = self.ph[self.rng.choice(["PH-1001", "PH-1007"])]
        loan = p["loans"][0]
        tool = self.rng.choice(self.free_tools())
        s.do("get_plotholder", {"plotholder_id": p["plotholder_id"]})
        s.do("return_tool", {"loan_id": loan["loan_id"]})
        s.do("lend_tool", {"plotholder_id": p["plotholder_id"], "tool_id": tool["tool_id"]})
        return "I'm %s, %s. Sorry the %s is late, here it is. While I'm here, can I take the %s?" % (
            self.name(p),
            p["plotholder_id"],
            loan["tool_name"].lower(),
            tool["name"].lower(),
        )

    def s_join(self, s):
        p = self.holder(
            lambda p: (
                p["status"] == "active"
                and len(self.waiting_sites(p["plotholder_id"])) < 2
                and (not self.active_tenancies(p["plotholder_id"]) or p["volunteer_hours"] >= 20)
                and len(self.active_tenancies(p["plotholder_id"])) < 2
            )
        )
        sites = [x for x in adapter.SITES if x not in self.waiting_sites(p["plotholder_id"])]
        site = self.rng.choice(sites)
        who = self.ident(s, p)
        if site != "Orchard Corner" and self.rng.random() < 0.5:
            s.do("search_plots", {"site": site, "status": "vacant"})
            s.do("join_waiting_list", {"plotholder_id": p["plotholder_id"], "preferred_site": site})
            return "%s, %s. Is anything free at %s? Whatever the answer, put me on the waiting list there." % (
                self.name(p),
                who,
                site,
            )
        s.do("join_waiting_list", {"plotholder_id": p["plotholder_id"], "preferred_site": site})
        return self.say(
            "Hello, %s here, %s. Please put me on the waiting list for %s. What number will I be?"
            % (self.name(p), who, site),
            "I'm %s (%s) and I'd like to go on the list for a plot at %s." % (self.name(p), who, site),
        )

    # -------------------------------------------------------------- sessions with a refused call
    def r_queue_jump(self, s):
        site = self.rng.choice(["Northfield", "Mill Lane"])
        q = self.queue(site)
        e = self.rng.choice(q[1:])
        p = self.ph[e["plotholder_id"]]
        plot = self.rng.choice(self.vacant(site))
        s.do("get_plotholder", {"plotholder_id": p["plotholder_id"]})
        s.do("let_plot", {"plotholder_id": p["plotholder_id"], "plot_id": plot["plot_id"]}, ok=False)
        return (
            "I'm %s, %s. I walked past %s at %s and it's empty, so I'd like it please. Can you let it to me today?"
            % (
                self.name(p),
                p["plotholder_id"],
                plot["plot_id"],
                site,
            )
        )

    def r_queue_outsider(self, s):
        plot = self.vacant("Northfield")[self.rng.randint(0, 1)]
        s.do("get_plotholder", {"plotholder_id": "PH-1014"})
        s.do("let_plot", {"plotholder_id": "PH-1014", "plot_id": plot["plot_id"]}, ok=False)
        if self.rng.random() < 0.5:
            s.do("join_waiting_list", {"plotholder_id": "PH-1014", "preferred_site": "Northfield"})
            tail = " If I can't have it, put me on the Northfield list."
        else:
            tail = ""
        return "Florian Ashdown, PH-1014. Can I have plot %s at Northfield?%s" % (plot["plot_id"], tail)

    def r_let_overgrown(self, s):
        p = self.holder(lambda p: p["status"] == "active" and not self.active_tenancies(p["plotholder_id"]))
        s.do("get_plot", {"plot_id": "P-110"})
        s.do("let_plot", {"plotholder_id": p["plotholder_id"], "plot_id": "P-110"}, ok=False)
        return "%s (%s) here. Nobody seems to be using P-110 on Mill Lane. I'll take it as it is, weeds and all." % (
            self.name(p),
            p["plotholder_id"],
        )

    def r_let_taken(self, s):
        p = self.holder(lambda p: p["status"] == "active" and not self.active_tenancies(p["plotholder_id"]))
        plot = self.plots[self.rng.choice(["P-113", "P-116", "P-114"])]
        s.do("let_plot", {"plotholder_id": p["plotholder_id"], "plot_id": plot["plot_id"]}, ok=False)
        s.do("search_plots", {"site": "Orchard Corner", "status": "vacant"})
        return "I'm %s, %s. I'd like plot %s at Orchard Corner. If that's not possible, what is free there?" % (
            self.name(p),
            p["plotholder_id"],
            plot["plot_id"],
        )

    def r_let_inactive(self, s):
        pid = self.rng.choice(["PH-1005", "PH-1008"])
        p = self.ph[pid]
        s.do("get_plotholder", {"plotholder_id": pid})
        s.do("let_plot", {"plotholder_id": pid, "plot_id": self.rng.choice(["P-112", "P-115"])}, ok=False)
        return "%s here, %s. Please let me one of the free Orchard Corner plots, %s." % (
            self.name(p),
            pid,
            s.calls[-1]["arguments"]["plot_id"],
        )

    def r_second_hours(self, s):
        pid = self.rng.choice(["PH-1002", "PH-1009", "PH-1010", "PH-1001"])
        p = self.ph[pid]
        s.do("get_plotholder", {"plotholder_id": pid})
        s.do("let_plot", {"plotholder_id": pid, "plot_id": "P-112"}, ok=False)
        return "I'm %s, %s. I'd like P-112 at Orchard Corner as well as my current plot." % (self.name(p), pid)

    def r_second_size(self, s):
        s.do("let_plot", {"plotholder_id": "PH-1006", "plot_id": "P-115"}, ok=False)
        s.do("quote_rent", {"plot_id": "P-112", "plotholder_id": "PH-1006"})
        return (
            "Rafferty Quayle, PH-1006. I'd like P-115 as a second plot. If I can't have that one, how much "
            "would P-112 be?"
        )

    def r_third_plot(self, s):
        s.do("list_tenancies", {"plotholder_id": "PH-1003", "status": "active"})
        s.do("let_plot", {"plotholder_id": "PH-1003", "plot_id": "P-112"}, ok=False)
        return "Hyacinth Dolloway, PH-1003. I'd like to add P-112 to my plots, please."

    def r_inspect_twice(self, s):
        who = self.rng.choice(INSPECTORS)
        s.do("record_inspection", {"tenancy_id": "T-2009", "result": "pass", "inspector": who}, ok=False)
        s.do("get_tenancy", {"tenancy_id": "T-2009"})
        return "%s here. Record a pass for T-2009 on Mill Lane, please, and read me back its inspection log." % who

    def r_inspect_ended(self, s):
        t = self.ten[self.rng.choice(["T-2001", "T-2002", "T-2003"])]
        who = self.rng.choice(INSPECTORS)
        s.do(
            "record_inspection",
            {"tenancy_id": t["tenancy_id"], "result": "fail", "inspector": who, "notes": self.rng.choice(FAIL_NOTES)},
            ok=False,
        )
        return "It's %s from the committee. Log a failed inspection on tenancy %s (plot %s), please." % (
            who,
            t["tenancy_id"],
            t["plot_id"],
        )

    def r_end_with_loans(self, s):
        pid = self.rng.choice(["PH-1001", "PH-1007"])
        p = self.ph[pid]
        t = self.active_tenancies(pid)[0]
        s.do("end_tenancy", {"tenancy_id": t["tenancy_id"], "reason": "Moving away"}, ok=False)
        s.do("return_tool", {"loan_id": p["loans"][0]["loan_id"]})
        s.do("end_tenancy", {"tenancy_id": t["tenancy_id"], "reason": "Moving away"})
        return "%s, %s. I'm moving away, so please end my tenancy %s. I've got the %s with me to hand back too." % (
            self.name(p),
            pid,
            t["tenancy_id"],
            p["loans"][0]["tool_name"].lower(),
        )

    def r_end_ended(self, s):
        t = self.ten[self.rng.choice(["T-2002", "T-2003"])]
        p = self.ph[t["plotholder_id"]]
        s.do("end_tenancy", {"tenancy_id": t["tenancy_id"]}, ok=False)
        s.do("list_tenancies", {"plotholder_id": p["plotholder_id"]})
        return "This is %s (%s). Please cancel tenancy %s. Actually, which tenancies have I got on record?" % (
            self.name(p),
            p["plotholder_id"],
            t["tenancy_id"],
        )

    def r_lend_overdue(self, s):
        pid = self.rng.choice(["PH-1001", "PH-1007"])
        p = self.ph[pid]
        tool = self.rng.choice(self.free_tools())
        s.do("lend_tool", {"plotholder_id": pid, "tool_id": tool["tool_id"]}, ok=False)
        s.do("get_plotholder", {"plotholder_id": pid})
        if self.rng.random() < 0.5:
            s.do("return_tool", {"loan_id": p["loans"][0]["loan_id"]})
            s.do("lend_tool", {"plotholder_id": pid, "tool_id": tool["tool_id"]})
            return (
                "%s here, %s. I'd like to borrow the %s. If something of mine is holding that up, I've got "
                "the %s in the car to give back."
                % (self.name(p), pid, tool["name"].lower(), p["loans"][0]["tool_name"].lower())
            )
        return "%s here, %s. I'd like to borrow the %s. What have I got out already?" % (
            self.name(p),
            pid,
            tool["name"].lower(),
        )

    def r_lend_busy(self, s):
        p = self.holder(self.can_borrow)
        tool = self.tools[self.rng.choice(["TL-402", "TL-404", "TL-407", "TL-408"])]
        s.do("lend_tool", {"plotholder_id": p["plotholder_id"], "tool_id": tool["tool_id"]}, ok=False)
        if self.rng.random() < 0.6:
            alt = self.rng.choice(self.free_tools())
            s.do("lend_tool", {"plotholder_id": p["plotholder_id"], "tool_id": alt["tool_id"]})
            return "I'm %s (%s). Can I borrow the %s? If it's not in, I'll take the %s instead." % (
                self.name(p),
                p["plotholder_id"],
                tool["name"].lower(),
                alt["name"].lower(),
            )
        return "%s, plotholder %s. Is the %s (%s) free to borrow today?" % (
            self.name(p),
            p["plotholder_id"],
            tool["name"].lower(),
            tool["tool_id"],
        )

    def r_lend_no_plot(self, s):
        pid = self.rng.choice(["PH-1011", "PH-1012", "PH-1013", "PH-1014"])
        p = self.ph[pid]
        tool = self.rng.choice(self.free_tools())
        who = self.ident(s, p)
        s.do("lend_tool", {"plotholder_id": pid, "tool_id": tool["tool_id"]}, ok=False)
        return "Hi, %s, %s. I'm still on the waiting list but I'm helping a friend; can I borrow the %s?" % (
            self.name(p),
            who,
            tool["name"].lower(),
        )

    def r_lend_limit(self, s):
        pid = self.rng.choice(["PH-1004", "PH-1010"])
        p = self.ph[pid]
        t1, t2, t3 = self.free_tools()
        s.do("lend_tool", {"plotholder_id": pid, "tool_id": t1["tool_id"]})
        s.do("lend_tool", {"plotholder_id": pid, "tool_id": t2["tool_id"]})
        s.do("lend_tool", {"plotholder_id": pid, "tool_id": t3["tool_id"]}, ok=False)
        return "%s here, %s. Big clear-up this weekend: I'd like the %s, the %s and the %s, please." % (
            self.name(p),
            pid,
            t1["name"].lower(),
            t2["name"].lower(),
            t3["name"].lower(),
        )

    def r_lend_days(self, s):
        p = self.holder(self.can_borrow)
        tool = self.tools[self.rng.choice(["TL-401", "TL-406"])]
        days = self.rng.choice([5, 7])
        s.do("lend_tool", {"plotholder_id": p["plotholder_id"], "tool_id": tool["tool_id"], "days": days}, ok=False)
        s.do(
            "lend_tool",
            {"plotholder_id": p["plotholder_id"], "tool_id": tool["tool_id"], "days": tool["max_loan_days"]},
        )
        return "%s (%s). I need the %s for %d days. If that's too long, give me the longest you can." % (
            self.name(p),
            p["plotholder_id"],
            tool["name"].lower(),
            days,
        )

    def r_return_twice(self, s):
        lid, pid = self.rng.choice([("LN-5000", "PH-1009"), ("LN-5001", "PH-1004")])
        p = self.ph[pid]
        s.do("return_tool", {"loan_id": lid}, ok=False)
        s.do("get_plotholder", {"plotholder_id": pid})
        return (
            "%s here (%s). Your shed volunteer says loan %s is still open on my account. Please close it "
            "and tell me what else I've got out." % (self.name(p), pid, lid)
        )

    def r_join_dup(self, s):
        e = self.rng.choice([e for k, e in sorted(self.wl.items()) if e["status"] == "waiting"])
        p = self.ph[e["plotholder_id"]]
        s.do("get_plotholder", {"plotholder_id": p["plotholder_id"]})
        s.do(
            "join_waiting_list", {"plotholder_id": p["plotholder_id"], "preferred_site": e["preferred_site"]}, ok=False
        )
        return "I'm %s, %s. Could you add me to the %s waiting list?" % (
            self.name(p),
            p["plotholder_id"],
            e["preferred_site"],
        )

    def r_join_max(self, s):
        pid = self.rng.choice(["PH-1011", "PH-1012"])
        p = self.ph[pid]
        s.do("get_plotholder", {"plotholder_id": pid})
        s.do("join_waiting_list", {"plotholder_id": pid, "preferred_site": "Orchard Corner"}, ok=False)
        return "%s, %s. Please put me down for Orchard Corner too; I'll take anything." % (self.name(p), pid)

    def r_join_holder(self, s):
        pid = self.rng.choice(["PH-1001", "PH-1002", "PH-1009", "PH-1010"])
        p = self.ph[pid]
        site = self.rng.choice(adapter.SITES)
        s.do("get_plotholder", {"plotholder_id": pid})
        s.do("join_waiting_list", {"plotholder_id": pid, "preferred_site": site}, ok=False)
        return "Hello, %s (%s). I'd like to go on the %s waiting list for a second plot." % (self.name(p), pid, site)

    def r_join_lapsed(self, s):
        s.do("get_plotholder", {"membership_number": "FAS-0233"})
        s.do("join_waiting_list", {"plotholder_id": "PH-1005", "preferred_site": "Orchard Corner"}, ok=False)
        return "Imelda Stroud, membership FAS-0233. I gave up my plot last year but I'd like to go back on the list for Orchard Corner."  # noqa: E501

    def r_quote_past(self, s):
        plot = self.rng.choice(self.vacant())
        s.do("quote_rent", {"plot_id": plot["plot_id"], "start_date": "2025-03-01"}, ok=False)
        s.do("quote_rent", {"plot_id": plot["plot_id"]})
        return (
            "What would plot %s have cost if I'd started on 1 March? Or what does it cost from today?" % plot["plot_id"]
        )

    def r_unknown_plot(self, s):
        pid = self.rng.choice(["P-117", "P-120", "P-099"])
        s.do("get_plot", {"plot_id": pid}, ok=False)
        s.do("search_plots", {"status": "vacant"})
        return "My neighbour mentioned plot %s is free. Can you check it, and otherwise list what's vacant?" % pid

    def r_unknown_member(self, s):
        mem = self.rng.choice(["FAS-0999", "FAS-0700"])
        s.do("get_plotholder", {"membership_number": mem}, ok=False)
        return "Hi, my membership number is %s. How much credit have I got?" % mem


VALID = {
    "s_profile": 3,
    "s_my_tenancy": 4,
    "s_history": 2,
    "s_plot_info": 2,
    "s_search": 2,
    "s_search_quote": 4,
    "s_quote_later": 3,
    "s_quote_plain": 2,
    "s_let_queue": 5,
    "s_let_open": 4,
    "s_second_plot": 1,
    "s_inspect": 6,
    "s_inspect_clear": 2,
    "s_third_warning": 1,
    "s_end": 5,
    "s_return_then_end": 3,
    "s_lend": 5,
    "s_return": 4,
    "s_return_and_borrow": 3,
    "s_join": 5,
}
REFUSE = [
    "r_queue_jump",
    "r_queue_outsider",
    "r_let_overgrown",
    "r_let_taken",
    "r_let_inactive",
    "r_second_hours",
    "r_second_size",
    "r_third_plot",
    "r_inspect_twice",
    "r_inspect_ended",
    "r_end_with_loans",
    "r_end_ended",
    "r_lend_overdue",
    "r_lend_busy",
    "r_lend_no_plot",
    "r_lend_limit",
    "r_lend_days",
    "r_return_twice",
    "r_join_dup",
    "r_join_max",
    "r_join_holder",
    "r_join_lapsed",
    "r_quote_past",
    "r_unknown_plot",
    "r_unknown_member",
]


def replay(data, calls):
    env = adapter.make()
    env.reset(data)
    return [env.call(c["name"], json.loads(json.dumps(c["arguments"])))["ok"] for c in calls]


def build(data, rng):
    gen = Gen(rng, data)
    plan = list(REFUSE)
    names = sorted(VALID)
    weights = [VALID[n] for n in names]
    while len(plan) < N_SESSIONS:
        plan.append(rng.choices(names, weights)[0])
    rng.shuffle(plan)
    out = []
    for kind in plan:
        for _ in range(50):
            s = Session(data)
            try:
                instr = getattr(gen, kind)(s)
            except Skip:
                continue
            if replay(data, s.calls) != s.expect:
                continue
            out.append((instr, s.calls, s.expect))
            break
        else:
            raise RuntimeError("could not build a %s session" % kind)
    return out


def acceptable(sessions):
    calls = sum(len(c) for _, c, _ in sessions)
    refused = sum(e.count(False) for _, _, e in sessions)
    per_tool = collections.Counter(c["name"] for _, cs, _ in sessions for c in cs)
    return (
        180 <= calls <= 225 and 0.11 <= refused / calls <= 0.135 and len(per_tool) == 12 and min(per_tool.values()) >= 8
    )


def main():
    with open(os.path.join(HERE, "data.json")) as f:
        data = json.load(f)
    for attempt in range(1000):
        rng = random.Random(SEED + attempt)
        sessions = build(data, rng)
        if acceptable(sessions):
            break
    else:
        raise RuntimeError("no acceptable plan")
    calls = sum(len(c) for _, c, _ in sessions)
    refused = sum(e.count(False) for _, _, e in sessions)
    with open(os.path.join(HERE, "trajectories.jsonl"), "w") as f:
        for i, (instr, cs, _) in enumerate(sessions):
            f.write(json.dumps({"id": "allotments-%03d" % i, "instruction": instr, "calls": cs}) + "\n")
    per_tool = collections.Counter(c["name"] for _, cs, _ in sessions for c in cs)
    print(
        "sessions: %d  calls: %d  refused: %d (%.1f%%)  attempt: %d"
        % (len(sessions), calls, refused, 100.0 * refused / calls, attempt)
    )
    print("  ".join("%s=%d" % kv for kv in sorted(per_tool.items())))


if __name__ == "__main__":
    main()
