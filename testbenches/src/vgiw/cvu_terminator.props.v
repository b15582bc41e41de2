// Properties of the CVU thread terminator (SPEC §5, VGIW §3.5), proved for all inputs
// on the exported Verilog by `weft prove`: WEFT_UUT becomes the preset's module, BATCH
// (64), ID_BITS (16) and TARGETS (2) its parameters (the block has two slots, a and b,
// per target). The contract is about the open batches, so the harness reads the slots'
// registers (open bit, base, bitmap, and which of a target's two slots was opened
// first) through `hierconn` wires, which Yosys's `flatten` joins to the instance's wires
// of the same hierarchical name, and states each property as a relation between one
// cycle (slots and inputs, held in `p_*` ghost registers) and the next. Slots are
// numbered s = 2 * target + (0 for a, 1 for b): a0, b0, a1, b1, the flush order.
// The slots' invariant (`p_inv_slots_well_formed`: open slots hold non-empty 64-aligned
// batches with distinct windows per target, closed ones nothing) is a property of its
// own, asserted beside every property by `weft prove`.
module weft_prove #(parameter BATCH = 64, parameter ID_BITS = 16, parameter TARGETS = 2) (
    input clock,
    input reset,
    input in_valid,
    input [ID_BITS-1:0] in_id,
    input in_taken,
    input flush,
    input out_ready
);
    localparam B = BATCH;
    localparam W = ID_BITS;
    localparam LB = $clog2(BATCH);
    localparam S = 2 * TARGETS;
    wire in_ready, out_valid, out_taken, empty;
    wire [W-1:0] out_base;
    wire [B-1:0] out_bitmap;
    WEFT_UUT uut (
        .clock(clock), .reset(reset), .in_valid(in_valid), .in_ready(in_ready),
        .in_id(in_id), .in_taken(in_taken), .flush(flush), .out_valid(out_valid),
        .out_ready(out_ready), .out_taken(out_taken), .out_base(out_base),
        .out_bitmap(out_bitmap), .empty(empty)
    );

    // The block's slots.
    (* hierconn *) wire \uut.a_valid$0$q , \uut.a_valid$1$q , \uut.b_valid$0$q , \uut.b_valid$1$q ;
    (* hierconn *) wire [W-1:0] \uut.a_base$0$q , \uut.a_base$1$q , \uut.b_base$0$q , \uut.b_base$1$q ;
    (* hierconn *) wire [B-1:0] \uut.a_bits$0$q , \uut.a_bits$1$q , \uut.b_bits$0$q , \uut.b_bits$1$q ;
    (* hierconn *) wire \uut.older_b$0$q , \uut.older_b$1$q ;
    wire [S-1:0] open = {\uut.b_valid$1$q , \uut.a_valid$1$q , \uut.b_valid$0$q , \uut.a_valid$0$q };
    wire [S*W-1:0] base = {\uut.b_base$1$q , \uut.a_base$1$q , \uut.b_base$0$q , \uut.a_base$0$q };
    wire [S*B-1:0] bits = {\uut.b_bits$1$q , \uut.a_bits$1$q , \uut.b_bits$0$q , \uut.a_bits$0$q };
    // older_b[t]: slot b of target t was opened before slot a (b is the victim).
    wire [TARGETS-1:0] older_b = {\uut.older_b$1$q , \uut.older_b$0$q };

    reg init = 1'b1;
    always @(*) if (init) assume(reset);

    // This cycle, as the contract reads it. The thread's window (64-aligned) and bit.
    wire [W-1:0] win = in_id & ~((1 << LB) - 1);
    wire [B-1:0] idb = {{(B-1){1'b0}}, 1'b1} << in_id[LB-1:0];
    wire flushing = flush && !in_valid;
    reg [S-1:0] hit;       // open slot of the thread's target holding its window
    reg [S-1:0] victim;    // the slot a thread that misses both full slots evicts
    reg [S-1:0] opened;    // the slot a thread that misses opens: free a, free b, victim
    reg [S-1:0] first;     // the first open slot (flush order)
    reg [S-1:0] sel;       // the slot whose batch is presented
    reg evicting, found, spec_taken, slots_ok;
    reg [W-1:0] spec_base;
    reg [B-1:0] spec_bits;
    integer s, t;
    always @(*) begin
        hit = 0;
        victim = 0;
        opened = 0;
        first = 0;
        found = 1'b0;
        slots_ok = 1'b1;
        for (s = 0; s < S; s = s + 1) begin
            if (in_valid && (s / 2) == in_taken && open[s] && base[s*W +: W] == win)
                hit[s] = 1'b1;
            if (open[s] && !found) begin
                first[s] = 1'b1;
                found = 1'b1;
            end
            // An open slot holds a non-empty 64-aligned batch, a closed one nothing.
            if (open[s] ? (base[s*W +: LB] != 0 || bits[s*B +: B] == 0)
                        : (base[s*W +: W] != 0 || bits[s*B +: B] != 0))
                slots_ok = 1'b0;
        end
        for (t = 0; t < TARGETS; t = t + 1) begin
            // A target's two open slots hold different windows.
            if (open[2*t] && open[2*t+1] && base[2*t*W +: W] == base[(2*t+1)*W +: W])
                slots_ok = 1'b0;
            if (in_valid && in_taken == t && hit[2*t +: 2] == 0) begin
                if (!open[2*t]) opened[2*t] = 1'b1;
                else if (!open[2*t+1]) opened[2*t+1] = 1'b1;
                else begin
                    victim[2*t + older_b[t]] = 1'b1;
                    opened[2*t + older_b[t]] = 1'b1;
                end
            end
        end
        evicting = victim != 0;
        sel = evicting ? victim : flushing ? first : 0;
        spec_taken = 1'b0;
        spec_base = 0;
        spec_bits = 0;
        for (s = 0; s < S; s = s + 1)
            if (sel[s]) begin
                spec_taken = s / 2;
                spec_base = base[s*W +: W];
                spec_bits = bits[s*B +: B];
            end
    end
    // The thread is taken on this edge.
    wire fire = in_valid && in_ready;
    // The presented batch is taken on this edge.
    wire sent = out_valid && out_ready;

    // Last cycle.
    reg p_reset = 1'b0, p_fire = 1'b0, p_taken = 1'b0, p_sent = 1'b0, p_flushing = 1'b0;
    reg [S-1:0] p_open = 0, p_hit = 0, p_opened = 0, p_sel = 0;
    reg [S*W-1:0] p_base = 0;
    reg [S*B-1:0] p_bits = 0;
    reg [TARGETS-1:0] p_older_b = 0;
    reg [W-1:0] p_win = 0;
    reg [B-1:0] p_idb = 0;
    always @(posedge clock) begin
        init <= 1'b0;
        p_reset <= reset;
        p_fire <= fire;
        p_taken <= in_taken;
        p_sent <= sent;
        p_flushing <= flushing;
        p_open <= open;
        p_hit <= hit;
        p_opened <= opened;
        p_sel <= sel;
        p_base <= base;
        p_bits <= bits;
        p_older_b <= older_b;
        p_win <= win;
        p_idb <= idb;
    end

    // The edge's effect on each slot, by the contract.
    reg recorded, held_ok, opened_ok, flush_ok;
    integer r, u;
    always @(*) begin
        recorded = 1'b0;
        held_ok = 1'b1;
        opened_ok = 1'b1;
        flush_ok = 1'b1;
        for (r = 0; r < S; r = r + 1) begin
            // The thread taken is in an open slot of its target holding its window.
            if ((r / 2) == p_taken && open[r] && base[r*W +: W] == p_win
                && (bits[r*B +: B] & p_idb) != 0)
                recorded = 1'b1;
            // A slot not sent keeps its window and threads, and gains the thread taken
            // when it holds that thread's window; a closed slot stays closed unless it
            // is the one opened.
            if (p_open[r] && !(p_sent && p_sel[r])) begin
                if (!open[r] || base[r*W +: W] != p_base[r*W +: W]
                    || bits[r*B +: B] != (p_bits[r*B +: B]
                                         | (p_fire && p_hit[r] ? p_idb : {B{1'b0}})))
                    held_ok = 1'b0;
            end
            if (!p_open[r] && !(p_fire && p_opened[r]) && open[r])
                held_ok = 1'b0;
            // A thread that misses opens the free slot a, else the free slot b, else
            // the older one (whose batch is sent on that edge), with its window and only
            // its bit; that slot is now the newer of the two.
            if (p_fire && p_opened[r]
                && (!open[r] || base[r*W +: W] != p_win || bits[r*B +: B] != p_idb
                    || older_b[r / 2] != (r % 2 == 0)))
                opened_ok = 1'b0;
            // A flushed batch that is sent closes its slot.
            if (p_flushing && p_sent && p_sel[r] && open[r])
                flush_ok = 1'b0;
        end
        // Which slot was opened first changes only when one opens.
        for (u = 0; u < TARGETS; u = u + 1)
            if (!(p_fire && p_opened[2*u +: 2] != 0) && older_b[u] != p_older_b[u])
                held_ok = 1'b0;
    end

    always @(*) if (!init) begin
        // The batch presented: on a thread whose window misses both open slots of its
        // target, the older slot's (in the same cycle); else, while flushing with no
        // thread, the first open slot's in the order a0, b0, a1, b1; else none (and
        // base and bitmap are 0).
        p_out_is_victim_or_first_open: assert(out_valid == (sel != 0)
            && out_base == spec_base && out_bitmap == spec_bits
            && (!out_valid || out_taken == spec_taken));
        // Open slots hold non-empty 64-aligned batches with distinct windows per target,
        // closed slots nothing.
        p_inv_slots_well_formed: assert(slots_ok);
        // Every batch presented is non-empty and 64-aligned.
        p_batches_well_formed: assert(!out_valid || (out_bitmap != 0 && out_base[LB-1:0] == 0));
        // A thread is refused only while its eviction waits for the scheduler; empty
        // exactly when no slot is open.
        p_in_ready_stalls_only_on_eviction: assert(in_ready == (!evicting || out_ready)
                                                   && empty == (open == 0));
        // Every thread taken is recorded in its target's batch for its window.
        p_thread_recorded: assert(p_reset || !p_fire || recorded);
        // Slots not sent lose no thread, gain only the thread taken in their window
        // (per target), and do not open by themselves; the open order changes only
        // when a slot opens. (With the slots' invariant: a thread's window is in at
        // most one slot of its target, so the induction closes at length 1.)
        p_held_slots_keep_threads: assert(p_reset || held_ok);
        // A miss opens the free slot a, else b, else reuses the older slot.
        p_miss_opens_free_else_older: assert(p_reset || opened_ok);
        // A flushed batch taken by the scheduler closes its slot.
        p_flush_closes_sent_slot: assert(p_reset || flush_ok);
        // Reset closes every slot.
        p_reset_closes_all: assert(!p_reset || (open == 0 && empty));
    end
endmodule
