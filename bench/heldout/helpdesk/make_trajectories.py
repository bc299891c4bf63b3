"""Writes trajectories.jsonl: recorded KVSD service desk sessions against the DeskLoop API.

Seeded (random.Random(SEED)); every session is meant to be replayed from the initial state in data.json.
Run: python3 make_trajectories.py
"""

import json
import os
import random

SEED = 20260304
HERE = os.path.dirname(os.path.abspath(__file__))


def C(name, **arguments):
    return {"name": name, "arguments": arguments}


def build(rng, data):
    S = []  # (instruction, calls)

    def add(instruction, *calls):
        S.append((instruction, list(calls)))

    mins = lambda: rng.choice([15, 20, 25, 30, 35, 40, 45])  # noqa: E731

    def available(type_, site):
        return sorted(
            a["asset_id"]
            for a in data["assets"].values()
            if a["type"] == type_ and a["site"] == site and a["status"] == "available" and a["loanable"]
        )

    # ---------------------------------------------------------------- reads and status checks
    add(
        rng.choice(
            [
                "Hi, it's Harriet Lowe-Danso at Cedar Hollow, harriet.lowe-danso@kvsd.example. "
                "Any news on the B-wing network outage? Who is working on it now?",
                "Harriet Lowe-Danso here (harriet.lowe-danso@kvsd.example). The B building is still "
                "offline, can you tell me where the ticket stands?",
            ]
        ),
        C("get_person", email="harriet.lowe-danso@kvsd.example"),
        C("get_ticket", ticket_id="TK-1007"),
    )
    add(
        "This is Rafferty Osei, principal at Alder Ridge. My laptop is still stuck on the logo, ticket TK-1019. "
        "Has anyone picked it up?",
        C("get_ticket", ticket_id="TK-1019"),
    )
    add(
        "Devin Achterberg, English at ARHS (P-2002). Can you list my tickets and tell me what's happening "
        "with the proctoring one?",
        C("search_tickets", requester_id="P-2002"),
        C("get_ticket", ticket_id="TK-1031"),
    )
    add(
        "Desk lead here: show me the devices queue for Amos (TECH-01), I want to see his load.",
        C("search_tickets", assignee_id="TECH-01"),
    )
    add(
        "Which tickets are sitting with the user at the moment? I'm doing the afternoon chase-ups.",
        C("search_tickets", status="waiting_on_user"),
    )
    add("Give me every P1 that's open right now.", C("search_tickets", priority="P1"))
    add(
        "What loanable kit is available at Birchfield today?",
        C("search_assets", site="BMS", status="available", loanable=True),
    )
    add("How many ThinkPads do we have and where are they?", C("search_assets", model="thinkpad"))
    add("Do we have any iPads free for loan anywhere?", C("search_assets", type="tablet", status="available"))
    add(
        "Desk lead: what's overdue on the devices team? Anything a tier 1 has let slip past its deadline, "
        "escalate and hand to Wren.",
        C("search_tickets", team="devices", breached=True),
        C(
            "escalate_ticket",
            ticket_id="TK-1016",
            reason="Resolve deadline breached on 2026-02-28; lab laptop still unusable",
        ),
        C("assign_ticket", ticket_id="TK-1016", technician_id="TECH-02"),
    )
    add(
        "It's Tobias Frennick (tobias.frennick@kvsd.example). What do I currently have out on loan, and is "
        "my projector ticket moving?",
        C("get_person", email="tobias.frennick@kvsd.example"),
        C("get_ticket", ticket_id="TK-1004"),
    )

    # ---------------------------------------------------------------- dispatch
    add(
        "Desk lead: the new hotspot ticket TK-1021 needs a network tech. Petra has the most experience, try her "
        "first, otherwise Ikenna.",
        C("search_tickets", team="network", status="new"),
        C("assign_ticket", ticket_id="TK-1021", technician_id="TECH-05"),
        C("assign_ticket", ticket_id="TK-1021", technician_id="TECH-04"),
    )
    add(
        "Desk lead: the gym PA ticket at Cedar Hollow is still unassigned. Give it to Milo, or to Hana if he's full.",
        C("search_tickets", team="classroom_av", status="new"),
        C("assign_ticket", ticket_id="TK-1020", technician_id="TECH-08"),
        C("assign_ticket", ticket_id="TK-1020", technician_id="TECH-09"),
    )
    add(
        "Dispatch TK-1010 (GeoGebra install) to Dalia; if she's away, Wren can take it.",
        C("get_ticket", ticket_id="TK-1010"),
        C("assign_ticket", ticket_id="TK-1010", technician_id="TECH-03"),
        C("assign_ticket", ticket_id="TK-1010", technician_id="TECH-02"),
    )
    add(
        "Please get the student portal lockout (TK-1003) to someone on accounts; Lucas has room.",
        C("get_ticket", ticket_id="TK-1003"),
        C("assign_ticket", ticket_id="TK-1003", technician_id="TECH-06"),
    )
    add(
        "Lucas from accounts said he could take the timing tablet ticket TK-1018. If that's not allowed put it "
        "with Amos.",
        C("get_ticket", ticket_id="TK-1018"),
        C("assign_ticket", ticket_id="TK-1018", technician_id="TECH-06"),
        C("assign_ticket", ticket_id="TK-1018", technician_id="TECH-01"),
    )
    add(
        "Amos wants the Chromebook cart ticket TK-1011 back now that he's caught up. Reassign it to him.",
        C("get_ticket", ticket_id="TK-1011"),
        C("assign_ticket", ticket_id="TK-1011", technician_id="TECH-01"),
    )
    add(
        "Lucas is swamped with lockouts this week; move the Counseling drive request off him to Greta.",
        C("search_tickets", assignee_id="TECH-06"),
        C("assign_ticket", ticket_id="TK-1013", technician_id="TECH-07"),
    )
    add(
        "Rafferty Osei, ARHS principal (P-2006). The whole of Alder Ridge has lost internet: every building, "
        "phones too. We have visitors all day. Please log it as an emergency and get someone on it.",
        C(
            "create_ticket",
            requester_id="P-2006",
            category="network",
            priority="P1",
            summary="No internet at Alder Ridge - all buildings offline",
            description="All ARHS buildings lost internet access around 09:50; VoIP phones also down.",
        ),
        C("assign_ticket", ticket_id="TK-1033", technician_id="TECH-04"),
    )

    # ---------------------------------------------------------------- escalation
    add(
        "Desk lead: pull up everything past its resolve deadline. The C114 projector has been broken for a "
        "week; escalate it and get a tier 2 AV tech on it.",
        C("search_tickets", breached=True),
        C(
            "escalate_ticket",
            ticket_id="TK-1004",
            reason="Resolve deadline breached on 2026-03-02; projector fails every lesson in C114",
        ),
        C("assign_ticket", ticket_id="TK-1004", technician_id="TECH-09"),
    )
    add(
        "Bartholomew Nyquist at Birchfield. The cart still has eight dead slots and three classes share it. "
        "It's been a week, I want this escalated to whoever is most senior.",
        C("get_ticket", ticket_id="TK-1011"),
        C(
            "escalate_ticket",
            ticket_id="TK-1011",
            reason="Breached since 2026-02-27; eight devices unusable for three classes",
        ),
        C("assign_ticket", ticket_id="TK-1011", technician_id="TECH-05"),
    )
    add(
        "Harriet again. The B-wing outage is now affecting state testing. Escalate it higher please.",
        C("get_ticket", ticket_id="TK-1007"),
        C("escalate_ticket", ticket_id="TK-1007", reason="State testing disrupted in B wing"),
    )
    add(
        "Tobias Frennick. My laptop fan is roaring again since this morning, the ticket you fixed yesterday. "
        "Can you reopen it?",
        C("get_ticket", ticket_id="TK-1029"),
        C(
            "update_ticket_status",
            ticket_id="TK-1029",
            status="in_progress",
            note="Fan noise back the morning after the fix",
        ),
    )
    add(
        "Devin Achterberg. Exams start tomorrow and I still can't get into the proctoring site. Please escalate "
        "TK-1031.",
        C("get_ticket", ticket_id="TK-1031"),
        C(
            "escalate_ticket",
            ticket_id="TK-1031",
            reason="Exam starts tomorrow morning; teacher still has no proctoring role",
        ),
    )
    add(
        "Aurelia Fenwick, registrar. The gradebook permissions issue now affects all three schools and report "
        "cards are due Friday. Escalate TK-1014 please.",
        C("get_ticket", ticket_id="TK-1014"),
        C("escalate_ticket", ticket_id="TK-1014", reason="All sites affected; report cards due Friday 2026-03-06"),
    )
    add(
        "Desk lead: Ikenna hasn't responded on the ARHS office Wi-Fi yet and it's a P2. Escalate it, the office "
        "has parents coming in.",
        C("get_ticket", ticket_id="TK-1002"),
        C(
            "escalate_ticket",
            ticket_id="TK-1002",
            reason="Impact grown: front office unusable with parent meetings all day",
        ),
    )

    # ---------------------------------------------------------------- status changes
    add(
        "Harriet Lowe-Danso. The monitors on my dock stopped working again today, same problem as the ticket "
        "you closed on Monday. Can you reopen it?",
        C("get_person", person_id="P-2003"),
        C(
            "update_ticket_status",
            ticket_id="TK-1022",
            status="in_progress",
            note="Both monitors undetected again on 2026-03-04",
        ),
    )
    add(
        "Lena Haverford, BMS. My staff portal is locking me out again, like in February (TK-1023). Please "
        "reopen that one.",
        C("get_ticket", ticket_id="TK-1023"),
        C(
            "update_ticket_status",
            ticket_id="TK-1023",
            status="in_progress",
            note="Locked out of the staff portal again",
        ),
        C(
            "create_ticket",
            requester_id="P-2009",
            category="account",
            priority="P4",
            summary="Staff portal locking me out again",
            description="Same symptom as TK-1023 (resolved 2026-02-23): portal locks the account after sign-in.",
        ),
    )
    add(
        "Devin here. The auditorium mic is cutting out yet again, reopen TK-1025.",
        C("get_ticket", ticket_id="TK-1025"),
        C(
            "update_ticket_status",
            ticket_id="TK-1025",
            status="in_progress",
            note="Mic dropping out again at the back of the hall",
        ),
        C(
            "create_ticket",
            requester_id="P-2002",
            category="av",
            priority="P3",
            summary="Auditorium wireless mic still dropping out",
            description="Follows TK-1025 (reopened twice). Drop-outs continue at the back of the hall.",
        ),
    )
    add(
        "Marisol Quenby. Yes, the science wing Wi-Fi has been fine since yesterday afternoon, you can close "
        "that ticket. Please note that I confirmed.",
        C("get_ticket", ticket_id="TK-1024"),
        C(
            "add_ticket_comment",
            ticket_id="TK-1024",
            author_id="P-2001",
            text="Confirmed: Wi-Fi in the science wing is working again.",
        ),
        C("update_ticket_status", ticket_id="TK-1024", status="closed"),
    )
    add(
        "Tobias Frennick: the fan is quiet now, thanks. Close the ticket.",
        C("get_ticket", ticket_id="TK-1029"),
        C("update_ticket_status", ticket_id="TK-1029", status="closed"),
    )
    add(
        "Greta (TECH-07): the SIS gradebook permissions are fixed, role re-synced. Resolve TK-1014.",
        C("get_ticket", ticket_id="TK-1014"),
        C(
            "update_ticket_status",
            ticket_id="TK-1014",
            status="resolved",
            resolution="Re-synced term 3 gradebook roles in SIS",
        ),
        C(
            "add_ticket_comment",
            ticket_id="TK-1014",
            author_id="TECH-07",
            text="Re-synced the term 3 teacher roles in SIS; gradebooks are editable again.",
            minutes_spent=rng.choice([40, 50, 55]),
        ),
        C(
            "update_ticket_status",
            ticket_id="TK-1014",
            status="resolved",
            resolution="Re-synced term 3 gradebook roles in SIS",
        ),
    )
    add(
        "Greta: the vendor added the proctoring role for Devin this morning, he's confirmed it works. Resolve TK-1031.",
        C("get_ticket", ticket_id="TK-1031"),
        C(
            "update_ticket_status",
            ticket_id="TK-1031",
            status="resolved",
            resolution="Vendor added the ARHS proctor role; teacher confirmed access",
        ),
    )
    add(
        "Mei Lindqvist: never mind the portal ticket, I got in with the new password. You can cancel it.",
        C("get_person", email="mlindqvist17@students.kvsd.example"),
        C(
            "update_ticket_status",
            ticket_id="TK-1003",
            status="cancelled",
            note="Requester withdrew: signed in successfully",
        ),
    )
    add(
        "Lena Haverford: please cancel the GeoGebra request, the department bought tablets with it preinstalled.",
        C("get_person", person_id="P-2009"),
        C(
            "update_ticket_status",
            ticket_id="TK-1010",
            status="cancelled",
            note="Requester withdrew: software no longer needed",
        ),
    )
    add(
        "Petra (TECH-05): I've fixed the VPN profile for Gideon, mark TK-1008 resolved.",
        C("get_ticket", ticket_id="TK-1008"),
        C("update_ticket_status", ticket_id="TK-1008", status="resolved", resolution="Re-issued the VPN profile"),
        C("update_ticket_status", ticket_id="TK-1008", status="in_progress"),
    )
    add(
        "Lucas (TECH-06): starting on the Counseling drive access now. I've added Colette to the group, "
        "waiting for her to sign out and back in.",
        C("update_ticket_status", ticket_id="TK-1013", status="in_progress"),
        C(
            "add_ticket_comment",
            ticket_id="TK-1013",
            author_id="TECH-06",
            text="Added the account to the CHHS-Counseling group.",
            visibility="internal",
            minutes_spent=mins(),
        ),
        C(
            "update_ticket_status",
            ticket_id="TK-1013",
            status="waiting_on_user",
            note="Asked Colette to sign out and back in, then confirm the drive appears",
        ),
    )
    add(
        "Amos (TECH-01): the replacement keyboard for the lab laptop is fitted, close out TK-1016 as resolved.",
        C(
            "add_ticket_comment",
            ticket_id="TK-1016",
            author_id="TECH-01",
            text="Fitted the replacement keyboard; all keys tested. USB keyboard can stay in the lab.",
            minutes_spent=mins(),
        ),
        C("update_ticket_status", ticket_id="TK-1016", status="resolved", resolution="Replaced the laptop keyboard"),
    )
    add(
        "Amos (TECH-01): the battery finally arrived; swapped it in Marisol's laptop. Resolve the ticket.",
        C("get_ticket", ticket_id="TK-1001"),
        C(
            "add_ticket_comment",
            ticket_id="TK-1001",
            author_id="TECH-01",
            text="New battery fitted; health report shows 100% of design capacity.",
            minutes_spent=mins(),
        ),
        C("update_ticket_status", ticket_id="TK-1001", status="resolved", resolution="Replaced the laptop battery"),
    )

    # ---------------------------------------------------------------- comments
    add(
        "Jonah Vasquez-Reil, student at ARHS: I can sign in to my email now, thanks! Please tell the tech.",
        C("get_person", email="jvasquezreil16@students.kvsd.example"),
        C("add_ticket_comment", ticket_id="TK-1012", author_id="P-2016", text="I can sign in now, thanks."),
        C(
            "update_ticket_status",
            ticket_id="TK-1012",
            status="resolved",
            resolution="Password reset; student signed in and set a new password",
        ),
    )
    add(
        "Priyanka Dunmore: I signed out and in like you said, and Premiere still asks me to start a trial.",
        C("get_ticket", ticket_id="TK-1017"),
        C(
            "add_ticket_comment",
            ticket_id="TK-1017",
            author_id="P-2011",
            text="Signed out and back in; Premiere still shows the trial prompt.",
        ),
    )
    add(
        "Yusuf Brannigan at CHHS. The students printed a test page from the library, it worked. Petra can "
        "close it off.",
        C(
            "add_ticket_comment",
            ticket_id="TK-1009",
            author_id="P-2008",
            text="Test page printed fine from a student account in the library.",
        ),
        C(
            "update_ticket_status",
            ticket_id="TK-1009",
            status="resolved",
            resolution="Updated the student VLAN ACL to reach the library printer",
        ),
    )
    add(
        "Elias Morrow, student at CHHS. The screen on my Chromebook is flickering now, the one that was "
        "repaired in February. Can you add that to the old ticket?",
        C("get_person", person_id="P-2020"),
        C("add_ticket_comment", ticket_id="TK-1026", author_id="P-2020", text="The repaired screen now flickers."),
        C(
            "create_ticket",
            requester_id="P-2020",
            category="hardware",
            priority="P3",
            summary="Chromebook screen flickering after February repair",
            asset_id="AS-3014",
            description="Screen replaced under TK-1026 now flickers.",
        ),
    )
    add(
        "Wren (TECH-02): I'm starting on the principal's laptop. Log 45 minutes of diagnostics as an internal "
        "note and set it in progress.",
        C(
            "add_ticket_comment",
            ticket_id="TK-1019",
            author_id="TECH-02",
            text="Boot loop after the BIOS update; recovery USB prepared.",
            visibility="internal",
            minutes_spent=45,
        ),
        C("update_ticket_status", ticket_id="TK-1019", status="in_progress"),
    )
    add(
        "Ikenna (TECH-04): tell the ARHS office I'm on the Wi-Fi issue and then mark it in progress.",
        C(
            "add_ticket_comment",
            ticket_id="TK-1002",
            author_id="TECH-04",
            text="Looking at the office access point now; expect a short drop at 10:30.",
            minutes_spent=mins(),
        ),
        C("update_ticket_status", ticket_id="TK-1002", status="in_progress"),
    )
    add(
        "Hana (TECH-09): I found a spare remote at DO for the gym office display. Note it on TK-1032 and park "
        "it until Ines confirms she's collected it.",
        C("update_ticket_status", ticket_id="TK-1032", status="in_progress"),
        C(
            "add_ticket_comment",
            ticket_id="TK-1032",
            author_id="TECH-09",
            text="A spare remote is waiting for you at the BMS front office.",
            minutes_spent=mins(),
        ),
        C(
            "update_ticket_status",
            ticket_id="TK-1032",
            status="waiting_on_user",
            note="Waiting for Ines to collect the spare remote from the front office",
        ),
    )

    # ---------------------------------------------------------------- new tickets
    add(
        "Hi, I'm Jonah Vasquez-Reil, student at Alder Ridge. My Chromebook won't turn on and I have a test "
        "tomorrow, this is an emergency, please make it top priority!",
        C("get_person", person_id="P-2016"),
        C(
            "create_ticket",
            requester_id="P-2016",
            category="hardware",
            priority="P1",
            summary="Chromebook won't turn on",
        ),
        C(
            "create_ticket",
            requester_id="P-2016",
            category="hardware",
            priority="P3",
            summary="Chromebook won't turn on",
            description="Personal device will not power on; test tomorrow.",
        ),
    )
    add(
        "Kwame Ashdown, student. My loaned Chromebook screen cracked, I want to report it.",
        C(
            "create_ticket",
            requester_id="P-2018",
            category="hardware",
            priority="P3",
            summary="Loaned Chromebook screen cracked",
            asset_id="AS-3010",
        ),
        C(
            "add_ticket_comment",
            ticket_id="TK-1015",
            author_id="P-2018",
            text="The crack has spread across the middle of the screen.",
        ),
    )
    add(
        "Talia Okafor-Penn, student at Birchfield, my email is tokaforpenn21@students.kvsd.example. I "
        "can't get into my school Google account.",
        C("get_person", email="tokaforpenn21@students.kvsd.example"),
        C(
            "create_ticket",
            requester_id="P-2021",
            category="account",
            priority="P3",
            summary="Can't sign in to school Google account",
        ),
    )
    add(
        "Aurelia Fenwick at the District Office. The conference room display won't pick up laptops over HDMI.",
        C(
            "create_ticket",
            requester_id="P-2015",
            category="av",
            priority=rng.choice(["P3", "P4"]),
            summary="DO conference room display not detecting HDMI",
            description="Display shows 'no signal' with any laptop; the board meets at 16:00.",
            site="DO",
        ),
    )
    add(
        "Gideon Tarrant, business manager. The finance add-in crashes Excel again, can you log it?",
        C(
            "create_ticket",
            requester_id="P-2012",
            category="software",
            priority="P4",
            summary="Finance add-in crashing Excel again",
            description="Same symptom as TK-1027 in February.",
        ),
    )
    add(
        "Sofia Brightwater, 7th grade at Birchfield. My Chromebook keyboard has a key missing.",
        C("get_person", person_id="P-2019"),
        C(
            "create_ticket",
            requester_id="P-2019",
            category="hardware",
            summary="Chromebook key missing",
            asset_id="AS-3013",
        ),
    )

    # ---------------------------------------------------------------- loans
    site_cb = available("chromebook", "ARHS")
    add(
        "Jonah Vasquez-Reil (jvasquezreil16@students.kvsd.example): can I borrow a Chromebook while mine is broken?",
        C("get_person", email="jvasquezreil16@students.kvsd.example"),
        C("search_assets", type="chromebook", site="ARHS", status="available"),
        C("create_loan", asset_id=rng.choice(site_cb), borrower_id="P-2016"),
    )
    add(
        "Mei Lindqvist, student at CHHS. I need a laptop for my coursework, a proper one, not a Chromebook.",
        C("search_assets", type="laptop", site="CHHS", status="available"),
        C("create_loan", asset_id="AS-3028", borrower_id="P-2017"),
        C("create_loan", asset_id="AS-3011", borrower_id="P-2017", due_on="2026-03-1" + str(rng.choice([1, 3, 6]))),
    )
    add(
        "Kwame Ashdown: can I get a hotspot too? Our internet at home is down.",
        C("get_person", person_id="P-2018"),
        C("create_loan", asset_id="AS-3021", borrower_id="P-2018"),
    )
    add(
        "Tobias Frennick. I need a projector for the art show setup on Friday. I'll bring the other one back "
        "today too, it's fine, no damage.",
        C("create_loan", asset_id="AS-3022", borrower_id="P-2004", due_on="2026-03-06"),
        C("return_loan", loan_id="LN-4011", condition="good"),
        C("create_loan", asset_id="AS-3022", borrower_id="P-2004", due_on="2026-03-06"),
    )
    add(
        "Priyanka Dunmore, media arts. I'd like the other Canon camera for a week for the documentary unit, "
        "say until the 10th.",
        C("search_assets", type="camera", status="available"),
        C("create_loan", asset_id="AS-3025", borrower_id="P-2011", due_on="2026-03-10"),
        C("create_loan", asset_id="AS-3025", borrower_id="P-2011", due_on="2026-03-07"),
    )
    add(
        "Marisol Quenby. While my laptop battery ticket is open can I borrow a loaner laptop from the ARHS "
        "cupboard for two weeks?",
        C("get_ticket", ticket_id="TK-1001"),
        C("search_assets", type="laptop", site="ARHS", status="available"),
        C("create_loan", asset_id="AS-3002", borrower_id="P-2001", ticket_id="TK-1001"),
    )
    add(
        "Simone Eckersley, athletics. I need the ARHS projector for the awards evening on Thursday. The "
        "principal agreed Administration pays for anything that happens to it.",
        C("get_person", person_id="P-2013"),
        C("create_loan", asset_id="AS-3022", borrower_id="P-2013", due_on="2026-03-06", department_id="DEPT-ADM"),
    )
    add(
        "Elias Morrow. Sorry, I'm returning the Chromebook late, the hinge is a bit bent now. Can I take "
        "another one home?",
        C("get_person", person_id="P-2020"),
        C("return_loan", loan_id="LN-4008", condition="minor_damage", notes="Hinge slightly bent"),
        C("create_loan", asset_id="AS-3011", borrower_id="P-2020"),
    )
    add(
        "Nadia Feldspar: the hotspot from ticket TK-1021 is useless, can I swap it for another one until the 12th?",
        C("return_loan", loan_id="LN-4010", condition="good", notes="Swapped: no data connection (TK-1021)"),
        C("search_assets", type="hotspot", status="available"),
        C("create_loan", asset_id="AS-3020", borrower_id="P-2023", due_on="2026-03-12", ticket_id="TK-1021"),
    )
    add(
        "Lena Haverford at BMS. I need a loaner laptop from the DO workroom; the HP I had before would be fine.",
        C("search_assets", type="laptop", site="DO"),
        C("create_loan", asset_id="AS-3008", borrower_id="P-2009"),
        C("create_loan", asset_id="AS-3007", borrower_id="P-2009", due_on="2026-03-2" + str(rng.choice([0, 5]))),
    )
    add(
        "Talia Okafor-Penn: could I borrow an iPad for the science fair project, for three weeks until the 25th?",
        C("create_loan", asset_id="AS-3017", borrower_id="P-2021", due_on="2026-03-25"),
        C("create_loan", asset_id="AS-3017", borrower_id="P-2021", due_on="2026-03-18"),
    )
    add(
        "Ines Calloway: the timing iPad still won't charge (that's ticket TK-1018). Can I have another tablet "
        "while you look at it?",
        C("get_person", person_id="P-2005"),
        C(
            "create_loan",
            asset_id="AS-3017",
            borrower_id="P-2005",
            ticket_id="TK-1018",
            due_on="2026-03-1" + str(rng.choice([0, 1, 3])),
        ),
    )

    # ---------------------------------------------------------------- returns
    add(
        "Priyanka again: I'm bringing back the camera early, everything's fine.",
        C("get_person", person_id="P-2011"),
        C("return_loan", loan_id="LN-4012", condition="good"),
    )
    add(
        "Tobias Frennick: returning the projector, a day late, but the CHHS loan cupboard was shut yesterday "
        "when I came by. Can the late fee go?",
        C("get_person", person_id="P-2004"),
        C(
            "return_loan",
            loan_id="LN-4011",
            condition="good",
            waiver_reason="CHHS loan cupboard closed on the due date (2026-03-03)",
        ),
    )
    add(
        "Ines Calloway: I'm so sorry, the timing iPad was left at the away meet and nobody can find it.",
        C("get_person", person_id="P-2005"),
        C("return_loan", loan_id="LN-4009", condition="lost", notes="Left at away track meet"),
    )
    add(
        "Harriet Lowe-Danso: handing back the loaner Dell, don't need it any more.",
        C("get_person", person_id="P-2003"),
        C("return_loan", loan_id="LN-4002", condition="good"),
    )
    add(
        "Sofia Brightwater's dad here with her Chromebook; a couple of keys came off.",
        C("get_person", person_id="P-2019"),
        C("return_loan", loan_id="LN-4007", condition="minor_damage", notes="Two keycaps missing"),
    )
    add(
        "Kwame Ashdown: here's the cracked Chromebook. Can I get a working one for now?",
        C("get_ticket", ticket_id="TK-1015"),
        C("return_loan", loan_id="LN-4005", condition="major_damage", notes="Cracked screen, see TK-1015"),
        C("create_loan", asset_id="AS-3009", borrower_id="P-2018", ticket_id="TK-1015"),
    )
    add(
        "Elias Morrow: returning the Chromebook now; it got stepped on, the screen's completely smashed.",
        C("return_loan", loan_id="LN-4008", condition="major_damage", notes="Screen smashed"),
    )

    # ---------------------------------------------------------------- parts from stock
    add(
        "Amos (TECH-01): starting Kwame's cracked screen. Take a 314 screen from ARHS stock for TK-1015, log "
        "the hour I spent and resolve it.",
        C("update_ticket_status", ticket_id="TK-1015", status="in_progress"),
        C("issue_stock", sku="STK-SCRN-314", ticket_id="TK-1015"),
        C(
            "add_ticket_comment",
            ticket_id="TK-1015",
            author_id="TECH-01",
            text="Replaced the screen; device tested and returned to the loan cupboard.",
            minutes_spent=60,
        ),
        C("update_ticket_status", ticket_id="TK-1015", status="resolved", resolution="Screen replaced from stock"),
    )
    add(
        "Amos (TECH-01): I'll take the timing tablet ticket. Ines needs a new USB-C charger for it from BMS stock.",
        C("assign_ticket", ticket_id="TK-1018", technician_id="TECH-01"),
        C("issue_stock", sku="STK-CHG-USBC65", ticket_id="TK-1018"),
        C(
            "add_ticket_comment",
            ticket_id="TK-1018",
            author_id="TECH-01",
            text="A replacement charger is needed but the PE device budget can't cover it; please ask the "
            "business manager for a transfer.",
        ),
    )
    add(
        "Milo (TECH-08): the C114 projector needs a new lamp. Issue one from CHHS, log my time and resolve it.",
        C("get_ticket", ticket_id="TK-1004"),
        C("issue_stock", sku="STK-LAMP-97", ticket_id="TK-1004"),
        C(
            "add_ticket_comment",
            ticket_id="TK-1004",
            author_id="TECH-08",
            text="Lamp replaced; ran the projector for 40 minutes without a flicker.",
            minutes_spent=mins(),
        ),
        C("update_ticket_status", ticket_id="TK-1004", status="resolved", resolution="Replaced the projector lamp"),
    )
    add(
        "Milo: Devin's smartboard pens are worn out; hand him a new pen set from ARHS stock on TK-1006.",
        C("get_ticket", ticket_id="TK-1006"),
        C("issue_stock", sku="STK-PEN-SB", ticket_id="TK-1006", quantity=1),
    )
    add(
        "Wren (TECH-02): the cart's charging board is dead; hand out eight Chromebook chargers from BMS so the "
        "kids can charge at their desks. If BMS is short, make up the rest from ARHS.",
        C("issue_stock", sku="STK-CHG-CB45", ticket_id="TK-1011", quantity=8),
        C("issue_stock", sku="STK-CHG-CB45", ticket_id="TK-1011", quantity=7),
        C("issue_stock", sku="STK-CHG-CB45", ticket_id="TK-1011", quantity=1, site="ARHS"),
    )
    add(
        "Hana (TECH-09): I'll take the gym PA buzz at CHHS; it's a ground loop, I need one HDMI cable from "
        "stock to re-route the mixer feed.",
        C("issue_stock", sku="STK-HDMI-2M", ticket_id="TK-1020"),
        C("assign_ticket", ticket_id="TK-1020", technician_id="TECH-09"),
        C("issue_stock", sku="STK-HDMI-2M", ticket_id="TK-1020"),
    )
    return S


def main():
    rng = random.Random(SEED)
    with open(os.path.join(HERE, "data.json")) as f:
        data = json.load(f)
    sessions = build(rng, data)
    rng.shuffle(sessions)
    path = os.path.join(HERE, "trajectories.jsonl")
    with open(path, "w") as f:
        for i, (instruction, calls) in enumerate(sessions):
            f.write(json.dumps({"id": f"helpdesk-{i:03d}", "instruction": instruction, "calls": calls}) + "\n")
    n_calls = sum(len(c) for _, c in sessions)
    print(f"wrote {len(sessions)} trajectories with {n_calls} calls to {os.path.basename(path)}")


if __name__ == "__main__":
    main()
