"""Seeded generator of support sessions for the Copperline Press order desk.

Written for forgegym. MIT License. Standard library only.

Each session is built by playing a desk agent against the real system (adapter.py) from data.json,
then replayed from data.json; it is kept only if exactly the intended calls are refused.
Writes trajectories.jsonl next to this file; running it twice writes the same bytes.
"""

import json
import os
import random

import adapter

SEED = 20250918
N_SESSIONS = 74
HERE = os.path.dirname(os.path.abspath(__file__))
TOOLS = (
    "get_customer",
    "get_product",
    "get_order",
    "search_products",
    "list_customer_orders",
    "quote_job",
    "place_order",
    "add_line_item",
    "remove_line_item",
    "respond_to_proof",
    "collect_order",
    "cancel_order",
)
QUANTITIES = [50, 100, 150, 200, 250, 300, 400, 500, 750, 1000, 1500, 2000]
JOBS = {
    "paper": ["Event flyers", "Price list leaflets", "Newsletter", "Order forms", "Menu inserts", "Club fixtures list"],
    "card": ["Loyalty cards", "Postcards", "Menu cards", "Swing tags", "Gift vouchers", "Appointment cards"],
    "label": ["Jar labels", "Product stickers", "Address labels", "Shelf stickers"],
    "specialty": ["Invitations", "Certificates", "Place cards", "Order of service"],
}
SIDES_WORDS = {1: "single-sided", 2: "double-sided"}
FINISH_WORDS = {
    "none": "no finishing",
    "trim": "trimmed",
    "fold": "folded",
    "crease": "creased and folded",
    "laminate": "laminated",
    "round_corners": "with rounded corners",
}


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
        self.customers = data["customers"]
        self.products = data["products"]
        self.fins = data["finishing_options"]
        self.orders = data["orders"]

    # -------------------------------------------------------------- pickers
    def say(self, *variants):
        return self.rng.choice(variants)

    def customer(self, kind=None, pred=None):
        ids = [
            c
            for c in sorted(self.customers)
            if (kind is None or self.customers[c]["account_type"] == kind) and (pred is None or pred(self.customers[c]))
        ]
        if not ids:
            raise Skip("no customer")
        return self.customers[self.rng.choice(ids)]

    def orderable(self, kind):
        def ok(c):
            if c["status"] != "active":
                return False
            if kind == "walk_in":
                return c["balance_owed"] == 0
            return c["credit_limit"] - c["balance_owed"] > 150

        return self.customer(kind, ok)

    def order(self, pred):
        rows = [self.orders[o] for o in sorted(self.orders) if pred(self.orders[o])]
        if not rows:
            raise Skip("no order")
        return self.rng.choice(rows)

    def cust_of(self, o):
        return self.customers[o["customer_id"]]

    def product(self, pred=None):
        ids = [
            p for p in sorted(self.products) if self.products[p]["active"] and (pred is None or pred(self.products[p]))
        ]
        if not ids:
            raise Skip("no product")
        return self.products[self.rng.choice(ids)]

    def finishings(self, p):
        out = ["none"]
        for code in sorted(self.fins):
            f = self.fins[code]
            if f["compatible_finishes"] is not None and p["finish"] not in f["compatible_finishes"]:
                continue
            if f["min_gsm"] is not None and p["weight_gsm"] < f["min_gsm"]:
                continue
            if f["max_gsm"] is not None and p["weight_gsm"] > f["max_gsm"]:
                continue
            out.append(code)
        return out

    def line(self, p=None, max_qty=None, small=False):
        p = p or self.product(lambda p: p["stock_sheets"] >= 50)
        cap = p["stock_sheets"] if max_qty is None else min(max_qty, p["stock_sheets"])
        pool = [q for q in QUANTITIES if q <= cap and (not small or q <= 300)]
        if not pool:
            raise Skip("no quantity")
        q = self.rng.choice(pool)
        sides = self.rng.choice([1, 2]) if p["double_sided"] else 1
        fin = self.rng.choice(self.finishings(p) + ["none"])
        item = {"product_id": p["product_id"], "quantity": q}
        if sides == 2 or self.rng.random() < 0.3:
            item["sides"] = sides
        if fin != "none" or self.rng.random() < 0.3:
            item["finishing"] = fin
        return item

    def describe(self, item):
        p = self.products[item["product_id"]]
        return "%d sheets of %s (%s), %s, %s" % (
            item["quantity"],
            p["name"],
            p["product_id"],
            SIDES_WORDS[item.get("sides", 1)],
            FINISH_WORDS[item.get("finishing", "none")],
        )

    def job(self, items):
        cat = self.products[items[0]["product_id"]]["category"]
        return self.rng.choice(JOBS[cat])

    def who(self, c):
        if c["account_type"] == "trade":
            return self.say(
                "This is %s from %s (account %s)." % (c["contact"]["name"], c["name"], c["customer_id"]),
                "%s here, customer %s." % (c["name"], c["customer_id"]),
            )
        return self.say(
            "Hi, I'm %s, customer number %s." % (c["name"], c["customer_id"]),
            "%s here (%s)." % (c["name"], c["customer_id"]),
        )

    # -------------------------------------------------------------- sessions that succeed
    def s_account(self, s):
        c = self.customer()
        s.do("get_customer", {"customer_id": c["customer_id"]})
        if self.rng.random() < 0.85:
            rows = s.do("list_customer_orders", {"customer_id": c["customer_id"]})
            open_rows = [r for r in rows if r["status"] not in ("collected", "cancelled")]
            if open_rows and self.rng.random() < 0.7:
                r = self.rng.choice(open_rows)
                s.do("get_order", {"order_id": r["order_id"]})
                return "%s What's our balance, what jobs have we got with you, and what's on the %s job?" % (
                    self.who(c),
                    r["job_name"].lower(),
                )
            return "%s What do I owe you at the moment, and which jobs do I have with you?" % self.who(c)
        if c["account_type"] == "trade":
            return self.say(
                "%s How much of our credit limit is left before we place the next job?" % self.who(c),
                "%s What's our trade discount, and what balance are we carrying?" % self.who(c),
            )
        return "%s Do I owe anything on my account?" % self.who(c)

    def s_order_status(self, s):
        o = self.order(lambda o: o["status"] != "cancelled")
        c = self.cust_of(o)
        s.do("get_order", {"order_id": o["order_id"]})
        if self.rng.random() < 0.7:
            line = self.rng.choice(o["line_items"])
            s.do("get_product", {"product_id": line["product_id"]})
            s.do(
                "quote_job",
                {
                    "customer_id": c["customer_id"],
                    "line_items": [
                        {
                            "product_id": line["product_id"],
                            "quantity": line["quantity"],
                            "sides": line["sides"],
                            "finishing": line["finishing"],
                        }
                    ],
                },
            )
            return (
                "%s What's the status of %s? And if I wanted the %s part again as a repeat, is the paper in and what would it cost now?"  # noqa: E501
                % (self.who(c), o["order_id"], line["description"])
            )
        return self.say(
            "%s Where is my job %s up to, and when is it due?" % (self.who(c), o["order_id"]),
            "Hello, I'm chasing order %s (%s). What's its status and the total?" % (o["order_id"], o["job_name"]),
            "%s Can you read me the line items on %s?" % (self.who(c), o["order_id"]),
        )

    def s_my_orders(self, s):
        o = self.order(lambda o: o["status"] in ("proof_sent", "ready", "printing", "quoted"))
        c = self.cust_of(o)
        st = o["status"]
        s.do("list_customer_orders", {"customer_id": c["customer_id"], "status": st})
        s.do("get_order", {"order_id": o["order_id"]})
        words = {
            "proof_sent": "waiting on a proof from me",
            "ready": "ready to pick up",
            "printing": "on the press right now",
            "quoted": "still at the quote stage",
        }[st]
        return "%s Which of my jobs are %s? Give me the details of the %s one." % (
            self.who(c),
            words,
            o["job_name"].lower(),
        )

    def s_product(self, s):
        p = self.product()
        s.do("get_product", {"product_id": p["product_id"]})
        if p["stock_sheets"] >= 100 and self.rng.random() < 0.85:
            item = self.line(p)
            s.do("quote_job", {"line_items": [item]})
            return "Tell me about %s: weight, price breaks, and how much is on the shelf. Then price %s." % (
                p["product_id"],
                self.describe(item),
            )
        return self.say(
            "How many sheets of %s (%s) do you have in, and what are the price breaks?" % (p["name"], p["product_id"]),
            "Can you tell me if %s can be printed on both sides, and what weight it is?" % p["product_id"],
            "What does %s cost per sheet if I order 1,000?" % p["product_id"],
        )

    def s_search(self, s):
        args = {}
        p = self.product(lambda p: p["stock_sheets"] > 0)
        keys = self.rng.sample(["finish", "size", "category", "in_stock", "min_stock"], self.rng.randint(1, 3))
        parts = []
        if "finish" in keys:
            args["finish"] = p["finish"]
            parts.append("%s finish" % p["finish"])
        if "size" in keys:
            args["size"] = p["size"]
            parts.append("%s size" % p["size"])
        if "category" in keys:
            args["category"] = p["category"]
            parts.append("%s stock" % p["category"])
        if "min_stock" in keys:
            n = self.rng.choice([200, 300, 500, 1000])
            args["min_stock"] = n
            parts.append("at least %d sheets on the shelf" % n)
        elif "in_stock" in keys:
            args["in_stock"] = True
            parts.append("in stock today")
        rows = s.do("search_products", args)
        if rows and self.rng.random() < 0.75:
            r = self.rng.choice(rows)
            pr = s.do("get_product", {"product_id": r["product_id"]})
            if pr["stock_sheets"] >= 100 and self.rng.random() < 0.6:
                item = self.line(self.products[pr["product_id"]])
                s.do("quote_job", {"line_items": [item]})
                return "What have you got with %s? Take the %s and price %d sheets, %s, %s." % (
                    ", ".join(parts),
                    r["name"],
                    item["quantity"],
                    SIDES_WORDS[item.get("sides", 1)],
                    FINISH_WORDS[item.get("finishing", "none")],
                )
            return "What have you got with %s? Then tell me the full price tiers for %s." % (
                ", ".join(parts),
                r["name"],
            )
        return "I'm looking for paper: %s. What are my options?" % ", ".join(parts)

    def s_quote(self, s):
        c = self.customer("trade") if self.rng.random() < 0.7 else None
        items = [self.line()]
        if self.rng.random() < 0.35:
            items.append(self.line())
        rush = self.rng.random() < 0.3
        args = {"line_items": items}
        if c is not None:
            args["customer_id"] = c["customer_id"]
        if rush or self.rng.random() < 0.2:
            args["rush"] = rush
        if c is not None and self.rng.random() < 0.8:
            s.do("get_customer", {"customer_id": c["customer_id"]})
        if self.rng.random() < 0.45 and sum(i["quantity"] for i in items) <= adapter.RUSH_MAX_SHEETS:
            args.pop("rush", None)
            s.do("quote_job", dict(args))
            s.do("quote_job", dict(args, rush=True))
            what = "; and ".join(self.describe(i) for i in items)
            head = self.who(c) if c else "Hello there."
            return "%s Price %s for me, both at the normal turnaround and as a rush job, so I can compare." % (
                head,
                what,
            )
        s.do("quote_job", args)
        what = "; and ".join(self.describe(i) for i in items)
        tail = " I need it in a rush." if rush else ""
        if c is None:
            return "Hi, I'm just after a price. How much would %s come to?%s" % (what, tail)
        return "%s How much would %s come to, with our trade discount?%s" % (self.who(c), what, tail)

    def s_quote_place(self, s):
        c = self.orderable(self.rng.choice(["trade", "trade", "walk_in"]))
        items = [self.line(small=c["account_type"] == "walk_in")]
        if self.rng.random() < 0.3:
            items.append(self.line(small=True))
        rush = self.rng.random() < 0.25
        job = self.job(items)
        if self.rng.random() < 0.8:
            s.do("get_customer", {"customer_id": c["customer_id"]})
        q = {"customer_id": c["customer_id"], "line_items": items}
        p = {"customer_id": c["customer_id"], "job_name": job, "line_items": items}
        if rush:
            q["rush"] = True
            p["rush"] = True
        s.do("quote_job", q)
        s.do("place_order", p)
        return "%s Please price up %s for our %s%s, and if it's all fine, put the order through." % (
            self.who(c),
            "; plus ".join(self.describe(i) for i in items),
            job.lower(),
            " as a rush job" if rush else "",
        )

    def s_walkin_place(self, s):
        c = self.orderable("walk_in")
        items = [self.line(small=True)]
        job = self.job(items)
        s.do("get_customer", {"customer_id": c["customer_id"]})
        s.do("quote_job", {"customer_id": c["customer_id"], "line_items": items})
        s.do("place_order", {"customer_id": c["customer_id"], "job_name": job, "line_items": items})
        return "%s I'd like to order %s for my %s. Go ahead and book it in." % (
            self.who(c),
            self.describe(items[0]),
            job.lower(),
        )

    def s_search_place(self, s):
        c = self.orderable("trade")
        p = self.product(lambda p: p["stock_sheets"] >= 500)
        rows = s.do("search_products", {"finish": p["finish"], "size": p["size"], "min_stock": 500})
        pick = self.products[self.rng.choice(rows)["product_id"]]
        if self.rng.random() < 0.5:
            s.do("get_product", {"product_id": pick["product_id"]})
        item = self.line(pick, max_qty=500)
        item["quantity"] = min(item["quantity"], 500)
        job = self.job([item])
        s.do("quote_job", {"customer_id": c["customer_id"], "line_items": [item]})
        s.do("place_order", {"customer_id": c["customer_id"], "job_name": job, "line_items": [item]})
        return (
            "%s We need %d sheets of %s %s stock for %s, %s, %s. Find something with at least 500 sheets "
            "on the shelf, price it with our discount, and place the order."
            % (
                self.who(c),
                item["quantity"],
                p["finish"],
                p["size"],
                job.lower(),
                SIDES_WORDS[item.get("sides", 1)],
                FINISH_WORDS[item.get("finishing", "none")],
            )
        )

    def s_place_then_add(self, s):
        c = self.orderable("trade")
        a = self.line(small=True)
        b = self.line(small=True)
        job = self.job([a])
        s.do("quote_job", {"customer_id": c["customer_id"], "line_items": [a]})
        o = s.do("place_order", {"customer_id": c["customer_id"], "job_name": job, "line_items": [a]})
        s.do("add_line_item", dict({"order_id": o["order_id"]}, **b))
        return "%s Book in %s for our %s. Oh, and add %s to the same job." % (
            self.who(c),
            self.describe(a),
            job.lower(),
            self.describe(b),
        )

    def s_add_line(self, s):
        o = self.order(lambda o: o["status"] in ("quoted", "proof_sent"))
        c = self.cust_of(o)
        item = self.line(small=True)
        s.do("get_order", {"order_id": o["order_id"]})
        if self.rng.random() < 0.5:
            s.do("get_product", {"product_id": item["product_id"]})
        s.do("add_line_item", dict({"order_id": o["order_id"]}, **item))
        return self.say(
            "%s Can you add %s to order %s?" % (self.who(c), self.describe(item), o["order_id"]),
            "About job %s (%s): we also need %s. Add it and tell me the new total."
            % (o["order_id"], o["job_name"], self.describe(item)),
        )

    def s_remove_line(self, s):
        o = self.order(lambda o: o["status"] in ("quoted", "proof_sent") and len(o["line_items"]) > 1)
        c = self.cust_of(o)
        line = self.rng.choice(o["line_items"])
        p = self.products[line["product_id"]]
        s.do("get_order", {"order_id": o["order_id"]})
        s.do("remove_line_item", {"order_id": o["order_id"], "line_id": line["line_id"]})
        if self.rng.random() < 0.5:
            item = self.line(small=True)
            s.do("add_line_item", dict({"order_id": o["order_id"]}, **item))
            return "%s On order %s, swap the %s sheets of %s for %s instead." % (
                self.who(c),
                o["order_id"],
                line["quantity"],
                p["name"],
                self.describe(item),
            )
        return "%s On order %s, please drop the %s sheets of %s; we don't need them any more." % (
            self.who(c),
            o["order_id"],
            line["quantity"],
            p["name"],
        )

    def s_approve(self, s):
        o = self.order(lambda o: o["status"] == "proof_sent")
        c = self.cust_of(o)
        if self.rng.random() < 0.5:
            s.do("list_customer_orders", {"customer_id": c["customer_id"], "status": "proof_sent"})
            s.do("get_order", {"order_id": o["order_id"]})
            s.do("respond_to_proof", {"order_id": o["order_id"], "decision": "approve"})
            return (
                "%s I've had a proof through for our %s job; I don't have the order number to hand. It's fine, approve it."  # noqa: E501
                % (self.who(c), o["job_name"].lower())
            )
        s.do("get_order", {"order_id": o["order_id"]})
        args = {"order_id": o["order_id"], "decision": "approve"}
        if self.rng.random() < 0.5:
            args["comments"] = self.rng.choice(["looks great", "colours are fine", "approved by the owner"])
        s.do("respond_to_proof", args)
        return self.say(
            "%s The proof for %s looks good. Please approve it and get it printed." % (self.who(c), o["order_id"]),
            "I've checked the proof on %s (%s). Go ahead, it's approved." % (o["order_id"], o["job_name"]),
        )

    def s_changes(self, s):
        o = self.order(lambda o: o["status"] == "proof_sent")
        c = self.cust_of(o)
        note = self.rng.choice(
            [
                "phone number on the back is wrong, should end 7741",
                "logo is too small, please double it",
                "change the date to Saturday 4 October",
                "use the darker green from last year's job",
            ]
        )
        s.do("get_order", {"order_id": o["order_id"]})
        s.do("respond_to_proof", {"order_id": o["order_id"], "decision": "request_changes", "comments": note})
        return "%s The proof for %s isn't right: %s. Can I see another one?" % (self.who(c), o["order_id"], note)

    def s_collect(self, s):
        o = self.order(lambda o: o["status"] == "ready")
        c = self.cust_of(o)
        if c["account_type"] == "trade":
            method = "account"
            if c["balance_owed"] + o["pricing"]["total"] > c["credit_limit"]:
                method = "card"
        else:
            method = self.rng.choice(["card", "cash"])
        s.do("get_order", {"order_id": o["order_id"]})
        s.do("collect_order", {"order_id": o["order_id"], "payment_method": method})
        if method == "account" and self.rng.random() < 0.8:
            s.do("get_customer", {"customer_id": c["customer_id"]})
            return "%s I'm here to pick up %s. Put it on our account and tell me where our balance stands." % (
                self.who(c),
                o["order_id"],
            )
        how = {"account": "on our account", "card": "by card", "cash": "in cash"}[method]
        return "%s I'm collecting order %s and paying %s. How much is it?" % (self.who(c), o["order_id"], how)

    def s_cancel_early(self, s):
        o = self.order(lambda o: o["status"] in ("quoted", "proof_sent"))
        c = self.cust_of(o)
        reason = self.rng.choice(["event postponed", "ordered elsewhere", "design not final", "budget cut"])
        if self.rng.random() < 0.4:
            s.do("list_customer_orders", {"customer_id": c["customer_id"], "status": o["status"]})
        s.do("get_order", {"order_id": o["order_id"]})
        s.do("cancel_order", {"order_id": o["order_id"], "reason": reason})
        return "%s Please cancel %s (%s); %s. There's no charge for that yet, right?" % (
            self.who(c),
            o["order_id"],
            o["job_name"],
            reason,
        )

    def s_cancel_fee(self, s):
        o = self.order(lambda o: o["status"] in ("approved", "printing"))
        c = self.cust_of(o)
        reason = self.rng.choice(["event cancelled", "wrong date on the artwork", "client pulled the campaign"])
        s.do("get_order", {"order_id": o["order_id"]})
        s.do("cancel_order", {"order_id": o["order_id"], "reason": reason})
        if self.rng.random() < 0.75:
            s.do("get_customer", {"customer_id": c["customer_id"]})
            return (
                "%s I know %s is already approved, but we have to cancel it: %s. What does that cost us, and what's our balance now?"  # noqa: E501
                % (
                    self.who(c),
                    o["order_id"],
                    reason,
                )
            )
        return "%s We need to stop job %s, %s. Cancel it and tell me the fee." % (self.who(c), o["order_id"], reason)

    def s_changes_then_edit(self, s):
        o = self.order(lambda o: o["status"] == "proof_sent")
        c = self.cust_of(o)
        s.do("get_order", {"order_id": o["order_id"]})
        s.do(
            "respond_to_proof",
            {
                "order_id": o["order_id"],
                "decision": "request_changes",
                "comments": "content change, see new line items",
            },
        )
        if len(o["line_items"]) > 1 and self.rng.random() < 0.5:
            line = o["line_items"][-1]
            s.do("remove_line_item", {"order_id": o["order_id"], "line_id": line["line_id"]})
            return (
                "%s Hold the proof on %s: we're not going ahead with the %s part (line %s). Take it off and send a new proof."  # noqa: E501
                % (
                    self.who(c),
                    o["order_id"],
                    line["description"],
                    line["line_id"],
                )
            )
        item = self.line(small=True)
        s.do("add_line_item", dict({"order_id": o["order_id"]}, **item))
        return "%s Don't print %s from that proof yet; we want to add %s first, then send me a fresh proof." % (
            self.who(c),
            o["order_id"],
            self.describe(item),
        )

    def s_visit(self, s):
        o = self.order(lambda o: o["status"] == "ready")
        c = self.cust_of(o)
        others = [
            x
            for x in sorted(self.orders)
            if self.orders[x]["customer_id"] == c["customer_id"]
            and self.orders[x]["status"] in ("quoted", "proof_sent", "approved", "printing")
        ]
        if not others:
            raise Skip("single order")
        other = self.orders[self.rng.choice(others)]
        s.do("list_customer_orders", {"customer_id": c["customer_id"]})
        if c["account_type"] == "trade" and c["balance_owed"] + o["pricing"]["total"] <= c["credit_limit"]:
            method, how = "account", "on the account"
        else:
            method, how = "card", "by card"
        s.do("collect_order", {"order_id": o["order_id"], "payment_method": method})
        if other["status"] == "proof_sent" and self.rng.random() < 0.6:
            s.do("respond_to_proof", {"order_id": other["order_id"], "decision": "approve"})
            return "%s I'm in to pick up whatever's ready, paying %s. While I'm here, the %s proof is approved." % (
                self.who(c),
                how,
                other["job_name"].lower(),
            )
        s.do("get_order", {"order_id": other["order_id"]})
        return "%s I'm collecting what's ready today, paying %s. And where's my %s job at?" % (
            self.who(c),
            how,
            other["job_name"].lower(),
        )

    # -------------------------------------------------------------- sessions with a refused call
    def r_credit_place(self, s):
        c = self.customer("trade", lambda c: c["status"] == "active" and c["credit_limit"] - c["balance_owed"] < 150)
        p = self.product(lambda p: p["stock_sheets"] >= 500 and p["category"] in ("paper", "card"))
        item = {"product_id": p["product_id"], "quantity": 1000, "sides": 2}
        if not p["double_sided"] or p["stock_sheets"] < 1000:
            raise Skip("single")
        job = self.job([item])
        s.do("get_customer", {"customer_id": c["customer_id"]})
        s.do("place_order", {"customer_id": c["customer_id"], "job_name": job, "line_items": [item]}, ok=False)
        if self.rng.random() < 0.6:
            small = dict(item, quantity=100)
            s.do("quote_job", {"customer_id": c["customer_id"], "line_items": [small]})
            return "%s Put through %s for our %s, please. If our account can't take it, what would just 100 cost?" % (
                self.who(c),
                self.describe(item),
                job.lower(),
            )
        return "%s Put through %s for our %s, please." % (self.who(c), self.describe(item), job.lower())

    def r_on_hold(self, s):
        c = self.customer(pred=lambda c: c["status"] != "active")
        item = self.line(small=True)
        job = self.job([item])
        s.do("place_order", {"customer_id": c["customer_id"], "job_name": job, "line_items": [item]}, ok=False)
        if self.rng.random() < 0.85:
            s.do("get_customer", {"customer_id": c["customer_id"]})
            return "%s We need %s for %s. Book it, and if there's a problem with our account, tell me what we owe." % (
                self.who(c),
                self.describe(item),
                job.lower(),
            )
        return "%s Please book %s for our %s." % (self.who(c), self.describe(item), job.lower())

    def r_walkin_balance(self, s):
        c = self.customer("walk_in", lambda c: c["balance_owed"] > 0)
        item = self.line(small=True)
        job = self.job([item])
        s.do("place_order", {"customer_id": c["customer_id"], "job_name": job, "line_items": [item]}, ok=False)
        s.do("get_customer", {"customer_id": c["customer_id"]})
        return "%s I'd like %s for some %s. If something's holding it up, what do I owe?" % (
            self.who(c),
            self.describe(item),
            job.lower(),
        )

    def r_walkin_cap(self, s):
        c = self.orderable("walk_in")
        p = self.product(lambda p: p["stock_sheets"] >= 2000 and p["double_sided"])
        big = {"product_id": p["product_id"], "quantity": 2000, "sides": 2, "finishing": "laminate"}
        if "laminate" not in self.finishings(p):
            raise Skip("no laminate")
        small = dict(big, quantity=250)
        job = self.job([big])
        s.do("place_order", {"customer_id": c["customer_id"], "job_name": job, "line_items": [big]}, ok=False)
        s.do("place_order", {"customer_id": c["customer_id"], "job_name": job, "line_items": [small]})
        return "%s I want %s for my %s. If that's too big an order for me, make it 250 instead." % (
            self.who(c),
            self.describe(big),
            job.lower(),
        )

    def r_stock_place(self, s):
        c = self.orderable("trade")
        p = self.product(lambda p: 0 <= p["stock_sheets"] < 1000)
        q = self.rng.choice([q for q in QUANTITIES if q > p["stock_sheets"]])
        item = {"product_id": p["product_id"], "quantity": q}
        job = self.job([item])
        s.do("place_order", {"customer_id": c["customer_id"], "job_name": job, "line_items": [item]}, ok=False)
        rows = s.do("search_products", {"finish": p["finish"], "min_stock": q})
        if rows and self.rng.random() < 0.6:
            alt = rows[0]
            item2 = {"product_id": alt["product_id"], "quantity": q}
            s.do("place_order", {"customer_id": c["customer_id"], "job_name": job, "line_items": [item2]})
            return "%s Order %s for our %s. If you're short, use the first %s stock you have %d sheets of instead." % (
                self.who(c),
                self.describe(item),
                job.lower(),
                p["finish"],
                q,
            )
        return "%s Order %s for our %s. If you're short, what %s stock do you have %d sheets of?" % (
            self.who(c),
            self.describe(item),
            job.lower(),
            p["finish"],
            q,
        )

    def r_single_sided(self, s):
        p = self.product(lambda p: not p["double_sided"])
        q = self.rng.choice([50, 100, 150])
        c = self.customer("trade")
        if self.rng.random() < 0.6:
            s.do("get_product", {"product_id": p["product_id"]})
        s.do(
            "quote_job",
            {
                "customer_id": c["customer_id"],
                "line_items": [{"product_id": p["product_id"], "quantity": q, "sides": 2}],
            },
            ok=False,
        )
        s.do(
            "quote_job",
            {
                "customer_id": c["customer_id"],
                "line_items": [{"product_id": p["product_id"], "quantity": q, "sides": 1}],
            },
        )
        return "%s Price %d sheets of %s printed on both sides, or single-sided if that's not possible." % (
            self.who(c),
            q,
            p["product_id"],
        )

    def r_finish_mismatch(self, s):
        kind = self.rng.choice(["laminate", "fold", "round_corners", "crease"])
        if kind == "laminate":
            p = self.product(lambda p: p["finish"] not in ("gloss", "silk", "matte"))
            alt = "trim"
        elif kind == "fold":
            p = self.product(lambda p: p["weight_gsm"] > 170)
            alt = "crease"
        elif kind == "crease":
            p = self.product(lambda p: p["weight_gsm"] <= 170)
            alt = "fold"
        else:
            p = self.product(lambda p: p["weight_gsm"] < 250)
            alt = "trim"
        q = self.rng.choice([100, 200, 250])
        bad = {"product_id": p["product_id"], "quantity": q, "finishing": kind}
        good = dict(bad, finishing=alt)
        s.do("quote_job", {"line_items": [bad]}, ok=False)
        s.do("quote_job", {"line_items": [good]})
        return "Can I get a price on %d sheets of %s, %s? If you can't do that on this paper, price it %s instead." % (
            q,
            p["name"],
            FINISH_WORDS[kind],
            FINISH_WORDS[alt],
        )

    def r_rush_limit(self, s):
        c = self.customer("trade")
        p = self.product(lambda p: p["stock_sheets"] >= 3000)
        item = {"product_id": p["product_id"], "quantity": 3000}
        s.do("quote_job", {"customer_id": c["customer_id"], "line_items": [item], "rush": True}, ok=False)
        s.do("quote_job", {"customer_id": c["customer_id"], "line_items": [item]})
        return (
            "%s We need 3,000 sheets of %s by the weekend, rush. If you can't rush that many, what's the normal price?"
            % (
                self.who(c),
                p["product_id"],
            )
        )

    def r_discontinued(self, s):
        p = self.products[self.rng.choice([x for x in sorted(self.products) if not self.products[x]["active"]])]
        c = self.customer("trade")
        q = self.rng.choice([250, 500])
        s.do(
            "quote_job",
            {"customer_id": c["customer_id"], "line_items": [{"product_id": p["product_id"], "quantity": q}]},
            ok=False,
        )
        s.do("search_products", {"finish": p["finish"], "category": p["category"]})
        return "%s Quote me %d sheets of %s (%s) like last time. If it's gone, what's similar?" % (
            self.who(c),
            q,
            p["name"],
            p["product_id"],
        )

    def r_add_after_approval(self, s):
        o = self.order(lambda o: o["status"] in ("approved", "printing"))
        c = self.cust_of(o)
        item = self.line(small=True)
        s.do("add_line_item", dict({"order_id": o["order_id"]}, **item), ok=False)
        s.do("get_order", {"order_id": o["order_id"]})
        return "%s Can you squeeze %s onto job %s?" % (self.who(c), self.describe(item), o["order_id"])

    def r_add_credit(self, s):
        def tight(o):
            c = self.cust_of(o)
            return (
                o["status"] in ("quoted", "proof_sent")
                and c["account_type"] == "trade"
                and c["credit_limit"] - c["balance_owed"] - o["pricing"]["total"] < 60
            )

        o = self.order(tight)
        c = self.cust_of(o)
        p = self.product(lambda p: p["stock_sheets"] >= 500 and p["double_sided"])
        item = {"product_id": p["product_id"], "quantity": 500, "sides": 2}
        s.do("get_order", {"order_id": o["order_id"]})
        s.do("add_line_item", dict({"order_id": o["order_id"]}, **item), ok=False)
        return "%s Please add %s to %s." % (self.who(c), self.describe(item), o["order_id"])

    def r_add_rush(self, s):
        o = self.order(lambda o: o["rush"] and o["status"] in ("quoted", "proof_sent"))
        c = self.cust_of(o)
        p = self.product(lambda p: p["stock_sheets"] >= 2000)
        item = {"product_id": p["product_id"], "quantity": 2000}
        s.do("add_line_item", dict({"order_id": o["order_id"]}, **item), ok=False)
        s.do("get_order", {"order_id": o["order_id"]})
        return "%s Our rush job %s needs another 2,000 sheets of %s added." % (self.who(c), o["order_id"], p["name"])

    def r_remove_last(self, s):
        o = self.order(lambda o: o["status"] in ("quoted", "proof_sent") and len(o["line_items"]) == 1)
        c = self.cust_of(o)
        s.do("get_order", {"order_id": o["order_id"]})
        s.do("remove_line_item", {"order_id": o["order_id"], "line_id": "L1"}, ok=False)
        s.do("cancel_order", {"order_id": o["order_id"], "reason": "customer no longer needs the job"})
        return "%s Take line L1 off order %s. If that empties the job, just cancel the whole thing." % (
            self.who(c),
            o["order_id"],
        )

    def r_remove_unknown(self, s):
        o = self.order(lambda o: o["status"] in ("quoted", "proof_sent"))
        c = self.cust_of(o)
        bad = "L%d" % (len(o["line_items"]) + self.rng.randint(1, 3))
        s.do("remove_line_item", {"order_id": o["order_id"], "line_id": bad}, ok=False)
        s.do("get_order", {"order_id": o["order_id"]})
        return "%s Remove line %s from %s, please. I might have the line number wrong." % (
            self.who(c),
            bad,
            o["order_id"],
        )

    def r_remove_late(self, s):
        o = self.order(lambda o: o["status"] in ("approved", "printing", "ready") and len(o["line_items"]) > 1)
        c = self.cust_of(o)
        s.do("get_order", {"order_id": o["order_id"]})
        s.do("remove_line_item", {"order_id": o["order_id"], "line_id": o["line_items"][-1]["line_id"]}, ok=False)
        return "%s On %s we don't need the last item after all. Take it off the bill." % (self.who(c), o["order_id"])

    def r_proof_not_sent(self, s):
        o = self.order(lambda o: o["status"] in ("quoted", "approved", "printing"))
        c = self.cust_of(o)
        s.do("respond_to_proof", {"order_id": o["order_id"], "decision": "approve"}, ok=False)
        s.do("get_order", {"order_id": o["order_id"]})
        if self.rng.random() < 0.5:
            s.do("list_customer_orders", {"customer_id": c["customer_id"], "status": "proof_sent"})
            return (
                "%s I'm happy with the artwork for %s, please approve the proof. If I've got the wrong job, which of mine are waiting on a proof?"  # noqa: E501
                % (self.who(c), o["order_id"])
            )
        return "%s I'm happy with the artwork for %s, please approve the proof." % (self.who(c), o["order_id"])

    def r_approve_stock(self, s):
        def short(o):
            if o["status"] != "proof_sent":
                return False
            need = {}
            for ln in o["line_items"]:
                need[ln["product_id"]] = need.get(ln["product_id"], 0) + ln["quantity"]
            return any(n > self.products[p]["stock_sheets"] for p, n in need.items())

        o = self.order(short)
        c = self.cust_of(o)
        s.do("respond_to_proof", {"order_id": o["order_id"], "decision": "approve"}, ok=False)
        pid = o["line_items"][0]["product_id"]
        pr = s.do("get_product", {"product_id": pid})
        if self.rng.random() < 0.5:
            s.do("search_products", {"finish": pr["finish"], "size": pr["size"], "in_stock": True})
            return (
                "%s Proof on %s is approved, get it printed. If you're short of paper, what else do you have in that size and finish?"  # noqa: E501
                % (self.who(c), o["order_id"])
            )
        return (
            "%s Proof on %s is approved. Can you get it on the press? If anything's holding it up, tell me how much paper you've got."  # noqa: E501
            % (
                self.who(c),
                o["order_id"],
            )
        )

    def r_collect_not_ready(self, s):
        o = self.order(lambda o: o["status"] in ("approved", "printing", "proof_sent"))
        c = self.cust_of(o)
        method = "account" if c["account_type"] == "trade" else "card"
        s.do("collect_order", {"order_id": o["order_id"], "payment_method": method}, ok=False)
        s.do("get_order", {"order_id": o["order_id"]})
        return "%s I'm at the counter to pick up %s. When will it be done if it isn't ready?" % (
            self.who(c),
            o["order_id"],
        )

    def r_collect_walkin_account(self, s):
        o = self.order(lambda o: o["status"] == "ready" and self.cust_of(o)["account_type"] == "walk_in")
        c = self.cust_of(o)
        s.do("collect_order", {"order_id": o["order_id"], "payment_method": "account"}, ok=False)
        s.do("collect_order", {"order_id": o["order_id"], "payment_method": "card"})
        return "%s Collecting %s. Can you put it on an account for me? Otherwise I'll pay by card." % (
            self.who(c),
            o["order_id"],
        )

    def r_collect_over_limit(self, s):
        def over(o):
            c = self.cust_of(o)
            return (
                o["status"] == "ready"
                and c["account_type"] == "trade"
                and c["balance_owed"] + o["pricing"]["total"] > c["credit_limit"]
            )

        o = self.order(over)
        c = self.cust_of(o)
        s.do("collect_order", {"order_id": o["order_id"], "payment_method": "account"}, ok=False)
        s.do("collect_order", {"order_id": o["order_id"], "payment_method": "card"})
        return "%s Picking up %s. Charge it to our account, or if that's not possible I'll use the company card." % (
            self.who(c),
            o["order_id"],
        )

    def r_cancel_late(self, s):
        o = self.order(lambda o: o["status"] in ("ready", "collected", "cancelled"))
        c = self.cust_of(o)
        s.do("cancel_order", {"order_id": o["order_id"], "reason": "no longer needed"}, ok=False)
        s.do("get_order", {"order_id": o["order_id"]})
        return "%s We don't need job %s any more, please cancel it and take it off our bill." % (
            self.who(c),
            o["order_id"],
        )

    def r_unknown_order(self, s):
        o = self.order(lambda o: True)
        c = self.cust_of(o)
        bad = "ORD-%d" % self.rng.randint(5030, 5099)
        s.do("get_order", {"order_id": bad}, ok=False)
        s.do("list_customer_orders", {"customer_id": c["customer_id"]})
        if self.rng.random() < 0.6:
            s.do("get_order", {"order_id": o["order_id"]})
            return (
                "%s My receipt says %s but that may be a typo; it's for our %s job. Can you find it and tell me its status?"  # noqa: E501
                % (self.who(c), bad, o["job_name"].lower())
            )
        return "%s My receipt says order %s but that may be a typo. What orders do I have open?" % (self.who(c), bad)

    def r_unknown_product(self, s):
        bad = "PRD-%d" % self.rng.randint(217, 240)
        p = self.product()
        s.do("get_product", {"product_id": bad}, ok=False)
        rows = s.do("search_products", {"size": p["size"], "finish": p["finish"]})
        if rows and self.rng.random() < 0.6:
            s.do("get_product", {"product_id": rows[0]["product_id"]})
            return (
                "Is %s still available? It's the %s %s paper I had last time. If the code's wrong, find it and give me its price breaks."  # noqa: E501
                % (bad, p["finish"], p["size"])
            )
        return "Is %s still available? It's the %s %s paper I had last time." % (bad, p["finish"], p["size"])

    def r_unknown_customer(self, s):
        bad = "CUS-%d" % self.rng.randint(115, 160)
        s.do("get_customer", {"customer_id": bad}, ok=False)
        return "Hi, my customer number is %s. What's my balance with you?" % bad


VALID = {
    "s_account": 3,
    "s_order_status": 3,
    "s_my_orders": 1,
    "s_product": 1,
    "s_search": 3,
    "s_quote": 3,
    "s_quote_place": 5,
    "s_walkin_place": 3,
    "s_search_place": 4,
    "s_place_then_add": 3,
    "s_add_line": 3,
    "s_remove_line": 5,
    "s_approve": 3,
    "s_changes": 2,
    "s_changes_then_edit": 3,
    "s_visit": 3,
    "s_collect": 3,
    "s_cancel_early": 4,
    "s_cancel_fee": 4,
}
REFUSE = [
    "r_credit_place",
    "r_on_hold",
    "r_walkin_balance",
    "r_walkin_cap",
    "r_stock_place",
    "r_single_sided",
    "r_finish_mismatch",
    "r_rush_limit",
    "r_discontinued",
    "r_add_after_approval",
    "r_add_credit",
    "r_add_rush",
    "r_remove_last",
    "r_remove_unknown",
    "r_remove_late",
    "r_proof_not_sent",
    "r_approve_stock",
    "r_collect_not_ready",
    "r_collect_walkin_account",
    "r_collect_over_limit",
    "r_cancel_late",
    "r_unknown_order",
    "r_unknown_product",
    "r_unknown_customer",
]


def replay(data, calls):
    env = adapter.make()
    env.reset(data)
    return [env.call(c["name"], json.loads(json.dumps(c["arguments"])))["ok"] for c in calls]


def build(data, rng):
    gen = Gen(rng, data)
    plan = list(REFUSE)
    for n in sorted(VALID):
        plan += [n] * (VALID[n] // 2 + 1)
    names = sorted(VALID)
    weights = [VALID[n] for n in names]
    while len(plan) < N_SESSIONS:
        plan.append(rng.choices(names, weights)[0])
    rng.shuffle(plan)
    out = []
    seen = set()
    for kind in plan:
        for tries in range(60):
            s = Session(data)
            try:
                instr = getattr(gen, kind)(s)
            except Skip:
                continue
            if replay(data, s.calls) != s.expect:
                continue
            key = json.dumps(s.calls, sort_keys=True)
            if key in seen and tries < 40:
                continue
            seen.add(key)
            out.append((instr, s.calls, s.expect))
            break
        else:
            raise RuntimeError("could not build a %s session" % kind)
    return out


def main():
    with open(os.path.join(HERE, "data.json")) as f:
        data = json.load(f)
    for attempt in range(500):
        rng = random.Random(SEED + attempt)
        sessions = build(data, rng)
        calls = sum(len(c) for _, c, _ in sessions)
        refused = sum(e.count(False) for _, _, e in sessions)
        per_tool = {t: 0 for t in TOOLS}
        for _, cs, _ in sessions:
            for c in cs:
                per_tool[c["name"]] += 1
        if 182 <= calls <= 225 and 0.11 <= refused / calls <= 0.14 and min(per_tool.values()) >= 8:
            break
    else:
        raise RuntimeError("no acceptable plan")
    with open(os.path.join(HERE, "trajectories.jsonl"), "w") as f:
        for i, (instr, cs, _) in enumerate(sessions):
            f.write(json.dumps({"id": "printshop-%03d" % i, "instruction": instr, "calls": cs}) + "\n")
    print(
        "sessions: %d  calls: %d  refused: %d (%.1f%%)  attempt: %d"
        % (len(sessions), calls, refused, 100.0 * refused / calls, attempt)
    )
    print("per tool: " + ", ".join("%s %d" % (t, per_tool[t]) for t in TOOLS))


if __name__ == "__main__":
    main()
