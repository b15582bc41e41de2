// Properties of the fabric switch (SPEC §6, VGIW §3.5), proved on the exported Verilog
// by `weft prove`. rust-hdl exports the switch's port arrays as one port per link
// (`in_valid$0`, ...), so this harness is written for three inputs and three outputs:
// the `switch_3x3` preset (two virtual channels). Ghost registers follow the contract:
// each output's route (the configuration shift chain) and each input's two-entry FIFO.
// The invariant `p_inv_tied` ties the ghosts to the block's own registers (read through
// `hierconn` wires, which Yosys's `flatten` joins to the instance's wires of the same
// hierarchical name): the routes equal `route_en`/`route_sel`, each input's ghost count
// is `head_valid + tail_valid` (the tail only behind a head), and the ghost entries equal
// the head and tail entries. The tie is itself part of the contract (a FIFO that loses,
// duplicates or reorders a token, or a route chain that shifts wrongly, breaks it), and
// it is inductive. Each other property is stated for the traces in which the tie has held
// so far (`tied_so_far`): `p_inv_tied` proves that is every trace, the tie strengthens the
// property's induction as much as if it were asserted with it, and a bug that breaks only
// the tie fails `p_inv_tied`, not the property (so each property's planted bug shows its
// own clause can fail).
module weft_prove #(parameter INS = 3, parameter OUTS = 3, parameter VCS = 2) (
    input clock,
    input reset,
    input [2:0] in_valid,
    input [2:0] in_vc,
    input [47:0] in_tid,
    input [95:0] in_data,
    input [2:0] out_ready,
    input cfg_shift,
    input cfg_in_en,
    input [1:0] cfg_in_sel
);
    wire [2:0] in_ready, out_valid, out_vc;
    wire [47:0] out_tid;
    wire [95:0] out_data;
    wire cfg_out_en;
    wire [1:0] cfg_out_sel;
    WEFT_UUT uut (
        .clock(clock), .reset(reset),
        .in_valid$0(in_valid[0]), .in_valid$1(in_valid[1]), .in_valid$2(in_valid[2]),
        .in_ready$0(in_ready[0]), .in_ready$1(in_ready[1]), .in_ready$2(in_ready[2]),
        .in_vc$0(in_vc[0]), .in_vc$1(in_vc[1]), .in_vc$2(in_vc[2]),
        .in_tid$0(in_tid[15:0]), .in_tid$1(in_tid[31:16]), .in_tid$2(in_tid[47:32]),
        .in_data$0(in_data[31:0]), .in_data$1(in_data[63:32]), .in_data$2(in_data[95:64]),
        .out_valid$0(out_valid[0]), .out_valid$1(out_valid[1]), .out_valid$2(out_valid[2]),
        .out_ready$0(out_ready[0]), .out_ready$1(out_ready[1]), .out_ready$2(out_ready[2]),
        .out_vc$0(out_vc[0]), .out_vc$1(out_vc[1]), .out_vc$2(out_vc[2]),
        .out_tid$0(out_tid[15:0]), .out_tid$1(out_tid[31:16]), .out_tid$2(out_tid[47:32]),
        .out_data$0(out_data[31:0]), .out_data$1(out_data[63:32]), .out_data$2(out_data[95:64]),
        .cfg_shift(cfg_shift), .cfg_in_en(cfg_in_en), .cfg_in_sel(cfg_in_sel),
        .cfg_out_en(cfg_out_en), .cfg_out_sel(cfg_out_sel)
    );

    // The block's registers.
    (* hierconn *) wire \uut.route_en$0$q , \uut.route_en$1$q , \uut.route_en$2$q ;
    (* hierconn *) wire [1:0] \uut.route_sel$0$q , \uut.route_sel$1$q , \uut.route_sel$2$q ;
    (* hierconn *) wire \uut.head_valid$0$q , \uut.head_valid$1$q , \uut.head_valid$2$q ;
    (* hierconn *) wire \uut.tail_valid$0$q , \uut.tail_valid$1$q , \uut.tail_valid$2$q ;
    (* hierconn *) wire \uut.head_vc$0$q , \uut.head_vc$1$q , \uut.head_vc$2$q ;
    (* hierconn *) wire \uut.tail_vc$0$q , \uut.tail_vc$1$q , \uut.tail_vc$2$q ;
    (* hierconn *) wire [15:0] \uut.head_tid$0$q , \uut.head_tid$1$q , \uut.head_tid$2$q ;
    (* hierconn *) wire [15:0] \uut.tail_tid$0$q , \uut.tail_tid$1$q , \uut.tail_tid$2$q ;
    (* hierconn *) wire [31:0] \uut.head_data$0$q , \uut.head_data$1$q , \uut.head_data$2$q ;
    (* hierconn *) wire [31:0] \uut.tail_data$0$q , \uut.tail_data$1$q , \uut.tail_data$2$q ;
    wire [2:0] r_en = {\uut.route_en$2$q , \uut.route_en$1$q , \uut.route_en$0$q };
    wire [5:0] r_sel = {\uut.route_sel$2$q , \uut.route_sel$1$q , \uut.route_sel$0$q };
    wire [2:0] hv = {\uut.head_valid$2$q , \uut.head_valid$1$q , \uut.head_valid$0$q };
    wire [2:0] tv = {\uut.tail_valid$2$q , \uut.tail_valid$1$q , \uut.tail_valid$0$q };
    // Input i's head and tail entries as tokens {vc, tid, data}, at 49i.
    wire [146:0] head_tok = {
        \uut.head_vc$2$q , \uut.head_tid$2$q , \uut.head_data$2$q ,
        \uut.head_vc$1$q , \uut.head_tid$1$q , \uut.head_data$1$q ,
        \uut.head_vc$0$q , \uut.head_tid$0$q , \uut.head_data$0$q };
    wire [146:0] tail_tok = {
        \uut.tail_vc$2$q , \uut.tail_tid$2$q , \uut.tail_data$2$q ,
        \uut.tail_vc$1$q , \uut.tail_tid$1$q , \uut.tail_data$1$q ,
        \uut.tail_vc$0$q , \uut.tail_tid$0$q , \uut.tail_data$0$q };

    reg init = 1'b1;
    always @(*) if (init) assume(reset);
    reg [2:0] en = 0;
    reg [5:0] sel = 0;
    // Each input's FIFO: `count` tokens, the head at entry 0. A token is {vc, tid, data}.
    reg [5:0] count = 0;             // two bits per input
    reg [293:0] fifo = 0;            // input i, entry e at 49 * (2i + e)

    // Which inputs feed an output, and whether every output fed by each is ready.
    reg [2:0] routed, all_ready, leaves;
    integer i0, k0;
    always @(*) begin
        routed = 0;
        all_ready = 3'b111;
        for (k0 = 0; k0 < 3; k0 = k0 + 1)
            for (i0 = 0; i0 < 3; i0 = i0 + 1)
                if (en[k0] && sel[2*k0 +: 2] == i0) begin
                    routed[i0] = 1'b1;
                    if (!out_ready[k0]) all_ready[i0] = 1'b0;
                end
        for (i0 = 0; i0 < 3; i0 = i0 + 1)
            leaves[i0] = count[2*i0 +: 2] != 0 && routed[i0] && all_ready[i0];
    end

    // What each output must show: its input's head, valid when that head leaves.
    reg [2:0] want_valid;
    reg [146:0] want_token;          // output k at 49k
    reg out_ok, multicast_ok;
    integer k1, k2;
    always @(*) begin
        want_valid = 0;
        want_token = 0;
        out_ok = 1'b1;
        multicast_ok = 1'b1;
        for (k1 = 0; k1 < 3; k1 = k1 + 1) begin
            if (en[k1] && sel[2*k1 +: 2] < 3) begin
                want_valid[k1] = leaves[sel[2*k1 +: 2]];
                want_token[49*k1 +: 49] = fifo[49*2*sel[2*k1 +: 2] +: 49];
            end
            if (out_valid[k1] &&
                {out_vc[k1], out_tid[16*k1 +: 16], out_data[32*k1 +: 32]} != want_token[49*k1 +: 49])
                out_ok = 1'b0;
            for (k2 = 0; k2 < 3; k2 = k2 + 1)
                if (en[k1] && en[k2] && sel[2*k1 +: 2] == sel[2*k2 +: 2] &&
                    out_valid[k1] != out_valid[k2])
                    multicast_ok = 1'b0;
        end
    end

    // The ghosts tied to the block's registers: routes; counts and valid bits; entries.
    reg route_tied, count_tied, entries_tied;
    integer i2;
    always @(*) begin
        route_tied = en == r_en && sel == r_sel;
        count_tied = 1'b1;
        entries_tied = 1'b1;
        for (i2 = 0; i2 < 3; i2 = i2 + 1) begin
            if (count[2*i2 +: 2] != {1'b0, hv[i2]} + {1'b0, tv[i2]} || (tv[i2] && !hv[i2]))
                count_tied = 1'b0;
            if (hv[i2] && fifo[49*2*i2 +: 49] != head_tok[49*i2 +: 49])
                entries_tied = 1'b0;
            if (tv[i2] && fifo[49*(2*i2+1) +: 49] != tail_tok[49*i2 +: 49])
                entries_tied = 1'b0;
        end
    end
    wire tied = route_tied && count_tied && entries_tied;
    // The tie held in every checked cycle up to this one (the reset cycle is not checked).
    reg tied_before = 1'b1;
    always @(posedge clock) tied_before <= init || (tied_before && tied);
    wire tied_so_far = tied_before && tied;

    integer i1;
    reg [1:0] c;
    reg [48:0] token;
    always @(posedge clock) begin
        init <= 1'b0;
        if (reset) begin
            en <= 0;
            sel <= 0;
            count <= 0;
        end else begin
            if (cfg_shift) begin
                en <= {en[1:0], cfg_in_en};
                sel <= {sel[3:0], cfg_in_sel};
            end
            for (i1 = 0; i1 < 3; i1 = i1 + 1) begin
                c = count[2*i1 +: 2];
                token = {in_vc[i1], in_tid[16*i1 +: 16], in_data[32*i1 +: 32]};
                if (leaves[i1]) begin
                    fifo[49*2*i1 +: 49] <= fifo[49*(2*i1+1) +: 49];
                    c = c - 1;
                end
                if (in_valid[i1] && in_ready[i1]) begin
                    if (c == 0) fifo[49*2*i1 +: 49] <= token;
                    else fifo[49*(2*i1+1) +: 49] <= token;
                    c = c + 1;
                end
                count[2*i1 +: 2] <= c;
            end
        end
    end

    always @(*) if (!init) begin
        // The ghosts are the block's registers: routes, counts and entries.
        p_inv_tied: assert(tied);
        // The route chain: output 2's route leaves for the next switch.
        p_route_chain: assert(cfg_out_en == en[2] && cfg_out_sel == sel[5:4]);
        // An input takes a token while its FIFO has room (registered: not full).
        p_ready_while_room: assert(!tied_so_far || (
            in_ready[0] == (count[1:0] < 2) &&
            in_ready[1] == (count[3:2] < 2) && in_ready[2] == (count[5:4] < 2)));
        // An output carries a token exactly when its input's head leaves, and that
        // head: tokens leave each input in order, none lost or duplicated.
        p_valid_when_the_head_leaves: assert(!tied_so_far || out_valid == want_valid);
        p_carries_the_head: assert(!tied_so_far || out_ok);
        // Multicast: the outputs of one input show its head together or not at all.
        p_multicast_all_or_nothing: assert(!tied_so_far || multicast_ok);
    end
endmodule
