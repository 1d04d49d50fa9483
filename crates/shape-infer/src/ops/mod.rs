//! One module per op, each exporting its [`OpDef`](crate::registry::OpDef).

use crate::registry::{OpDef, OpVersion};

mod adaptive_avg_pool;
mod adaptive_max_pool;
pub mod assign;
pub mod avg_pool;
pub mod batch_norm_inference;
mod batch_to_space;
mod binary_convolution;
pub(crate) mod bodies;
pub use bodies::{slice_iterations, BODY_OPS};
mod broadcast_op;
pub mod bucketize;
pub mod col2im;
mod compress;
mod concat;
mod constant;
mod convert;
mod convert_color;
mod convert_color_to_nv12;
mod convert_promote_types;
mod convolution;
mod convolution_backprop_data;
mod ctc_greedy_decoder;
mod ctc_greedy_decoder_seq_len;
mod ctc_loss;
mod cum_sum;
mod deformable_convolution;
pub mod deformable_psroi_pooling;
mod depth_to_space;
pub mod detection_output;
pub(crate) mod dft;
pub mod einsum;
mod elementwise_binary;
mod elementwise_unary;
mod embedding_bag_offsets;
mod embedding_bag_packed;
mod embedding_segments_sum;
mod erf_inv;
pub mod experimental_detectron_detection_output;
mod experimental_detectron_generate_proposals;
pub mod experimental_detectron_prior_grid_generator;
pub mod experimental_detectron_roi_feature_extractor;
pub mod experimental_detectron_topk_rois;
mod extract;
pub mod extract_image_patches;
mod eye;
mod fake_convert;
pub mod fake_quantize;
mod gather;
mod gather_elements;
mod gather_nd;
mod gather_tree;
pub mod generate_proposals;
pub mod grid_sample;
mod grn;
mod group_convolution;
mod group_convolution_backprop_data;
mod group_normalization;
mod grouped_mat_mul;
mod gru_cell;
mod gru_sequence;
mod identity;
mod if_op;
pub mod interpolate;
mod inverse;
mod irdft;
mod istft;
mod log_softmax;
mod loop_op;
pub mod lrn;
mod lstm_cell;
mod lstm_sequence;
mod matmul;
pub mod matrix_nms;
mod max_pool;
pub mod multiclass_nms;
mod multinomial;
pub mod mvn;
pub mod nms_common;
pub mod nms_rotated;
pub mod non_max_suppression;
mod non_zero;
mod normalize_l2;
pub mod one_hot;
mod pad;
mod parameter;
pub mod prior_box;
pub mod prior_box_clustered;
pub mod proposal;
pub mod psroi_pooling;
pub(crate) mod random_uniform;
mod range;
mod rdft;
pub mod read_value;
mod reduce;
pub mod region_yolo;
pub mod reorg_yolo;
mod reshape;
mod result;
pub mod reverse;
pub mod reverse_sequence;
pub mod rnn;
mod rnn_cell;
mod rnn_sequence;
pub mod roi_align;
pub mod roi_align_rotated;
pub mod roi_pooling;
mod roll;
mod scaled_dot_product_attention;
mod scatter_elements_update;
mod scatter_nd_update;
mod scatter_update;
mod search_sorted;
pub mod segment_max;
mod select;
mod shape_of;
mod shuffle_channels;
mod slice;
mod slice_scatter;
mod softmax;
mod space_to_batch;
mod space_to_depth;
mod sparse_fill_empty_rows;
mod split;
mod squeeze;
mod stft;
mod strided_slice;
mod string_tensor_pack;
mod string_tensor_unpack;
pub mod support;
mod tensor_iterator;
mod tile;
pub mod topk;
mod transpose;
mod unique;
mod unsqueeze;
mod variadic_split;

/// An op that has existed unchanged since opset 1.
pub(crate) const SINCE_OPSET1: &[OpVersion] = &[OpVersion::openvino(1, 1)];

/// A project op (not in OpenVINO's opsets) that has existed since `ovir1`.
pub(crate) const SINCE_OVIR1: &[OpVersion] = &[OpVersion::project(1, 1)];

/// Every op the registry knows, sorted by type name in byte order (the
/// registry searches it by halves; a test checks the order).
pub static ALL: &[&OpDef] = &[
    &elementwise_unary::ABS,
    &elementwise_unary::ACOS,
    &elementwise_unary::ACOSH,
    &adaptive_avg_pool::DEF,
    &adaptive_max_pool::DEF,
    &elementwise_binary::ADD,
    &elementwise_unary::ASIN,
    &elementwise_unary::ASINH,
    &assign::DEF,
    &elementwise_unary::ATAN,
    &elementwise_unary::ATANH,
    &avg_pool::DEF,
    &convert_color_to_nv12::BGR_TO_NV12,
    &batch_norm_inference::DEF,
    &batch_to_space::DEF,
    &binary_convolution::DEF,
    &elementwise_binary::BITWISE_AND,
    &elementwise_binary::BITWISE_LEFT_SHIFT,
    &elementwise_unary::BITWISE_NOT,
    &elementwise_binary::BITWISE_OR,
    &elementwise_binary::BITWISE_RIGHT_SHIFT,
    &elementwise_binary::BITWISE_XOR,
    &broadcast_op::DEF,
    &bucketize::DEF,
    &ctc_greedy_decoder::DEF,
    &ctc_greedy_decoder_seq_len::DEF,
    &ctc_loss::DEF,
    &elementwise_unary::CEILING,
    &elementwise_unary::CLAMP,
    &col2im::DEF,
    &compress::DEF,
    &concat::DEF,
    &constant::DEF,
    &convert::CONVERT,
    &convert::CONVERT_LIKE,
    &convert_promote_types::DEF,
    &convolution::DEF,
    &convolution_backprop_data::DEF,
    &elementwise_unary::COS,
    &elementwise_unary::COSH,
    &cum_sum::DEF,
    &dft::DFT,
    &deformable_convolution::DEF,
    &deformable_psroi_pooling::DEF,
    &depth_to_space::DEF,
    &detection_output::DEF,
    &elementwise_binary::DIVIDE,
    &einsum::DEF,
    &elementwise_unary::ELU,
    &embedding_bag_offsets::DEF,
    &embedding_bag_offsets::SUM,
    &embedding_bag_packed::DEF,
    &embedding_bag_packed::SUM,
    &embedding_segments_sum::DEF,
    &elementwise_binary::EQUAL,
    &elementwise_unary::ERF,
    &erf_inv::DEF,
    &elementwise_unary::EXP,
    &experimental_detectron_detection_output::DEF,
    &experimental_detectron_generate_proposals::DEF,
    &experimental_detectron_prior_grid_generator::DEF,
    &experimental_detectron_roi_feature_extractor::DEF,
    &experimental_detectron_topk_rois::DEF,
    &extract::DEF,
    &extract_image_patches::DEF,
    &eye::DEF,
    &fake_convert::DEF,
    &fake_quantize::DEF,
    &elementwise_unary::FLOOR,
    &elementwise_binary::FLOOR_MOD,
    &grn::DEF,
    &gru_cell::DEF,
    &gru_sequence::DEF,
    &gather::DEF,
    &gather_elements::DEF,
    &gather_nd::DEF,
    &gather_tree::DEF,
    &elementwise_unary::GELU,
    &generate_proposals::DEF,
    &elementwise_binary::GREATER,
    &elementwise_binary::GREATER_EQUAL,
    &grid_sample::DEF,
    &group_convolution::DEF,
    &group_convolution_backprop_data::DEF,
    &group_normalization::DEF,
    &grouped_mat_mul::DEF,
    &elementwise_unary::HSIGMOID,
    &elementwise_unary::HSWISH,
    &elementwise_unary::HARD_SIGMOID,
    &convert_color::I420_TO_BGR,
    &convert_color::I420_TO_RGB,
    &dft::IDFT,
    &irdft::DEF,
    &istft::DEF,
    &identity::DEF,
    &interpolate::DEF,
    &inverse::DEF,
    &elementwise_unary::IS_FINITE,
    &elementwise_unary::IS_INF,
    &elementwise_unary::IS_NAN,
    &lrn::DEF,
    &lstm_cell::DEF,
    &lstm_sequence::DEF,
    &elementwise_binary::LESS,
    &elementwise_binary::LESS_EQUAL,
    &elementwise_unary::LOG,
    &log_softmax::DEF,
    &elementwise_binary::LOGICAL_AND,
    &elementwise_unary::LOGICAL_NOT,
    &elementwise_binary::LOGICAL_OR,
    &elementwise_binary::LOGICAL_XOR,
    &mvn::DEF,
    &matmul::DEF,
    &matrix_nms::DEF,
    &max_pool::DEF,
    &elementwise_binary::MAXIMUM,
    &elementwise_binary::MINIMUM,
    &elementwise_unary::MISH,
    &elementwise_binary::MOD,
    &multiclass_nms::DEF,
    &multinomial::DEF,
    &elementwise_binary::MULTIPLY,
    &nms_rotated::DEF,
    &convert_color::NV12_TO_BGR,
    &convert_color::NV12_TO_RGB,
    &elementwise_unary::NEGATIVE,
    &non_max_suppression::DEF,
    &non_zero::DEF,
    &normalize_l2::DEF,
    &elementwise_binary::NOT_EQUAL,
    &one_hot::DEF,
    &elementwise_unary::PRELU,
    &psroi_pooling::DEF,
    &pad::DEF,
    &parameter::DEF,
    &elementwise_binary::POWER,
    &prior_box::DEF,
    &prior_box_clustered::DEF,
    &proposal::DEF,
    &rdft::DEF,
    &convert_color_to_nv12::RGB_TO_NV12,
    &rnn_cell::DEF,
    &rnn_sequence::DEF,
    &roi_align::DEF,
    &roi_align_rotated::DEF,
    &roi_pooling::DEF,
    &random_uniform::DEF,
    &range::DEF,
    &elementwise_unary::RELU,
    &read_value::DEF,
    &reduce::L1,
    &reduce::L2,
    &reduce::LOGICAL_AND,
    &reduce::LOGICAL_OR,
    &reduce::MAX,
    &reduce::MEAN,
    &reduce::MIN,
    &reduce::PROD,
    &reduce::SUM,
    &region_yolo::DEF,
    &reorg_yolo::DEF,
    &reshape::DEF,
    &result::DEF,
    &reverse::DEF,
    &reverse_sequence::DEF,
    &roll::DEF,
    &elementwise_unary::ROUND,
    &stft::DEF,
    &scaled_dot_product_attention::DEF,
    &scatter_elements_update::DEF,
    &scatter_nd_update::DEF,
    &scatter_update::DEF,
    &search_sorted::DEF,
    &segment_max::DEF,
    &select::DEF,
    &elementwise_unary::SELU,
    &shape_of::DEF,
    &shuffle_channels::DEF,
    &elementwise_unary::SIGMOID,
    &elementwise_unary::SIGN,
    &elementwise_unary::SIN,
    &elementwise_unary::SINH,
    &slice::DEF,
    &slice_scatter::DEF,
    &softmax::DEF,
    &elementwise_unary::SOFT_PLUS,
    &elementwise_unary::SOFT_SIGN,
    &space_to_batch::DEF,
    &space_to_depth::DEF,
    &sparse_fill_empty_rows::DEF,
    &split::DEF,
    &elementwise_unary::SQRT,
    &elementwise_binary::SQUARED_DIFFERENCE,
    &squeeze::DEF,
    &strided_slice::DEF,
    &string_tensor_pack::DEF,
    &string_tensor_unpack::DEF,
    &elementwise_binary::SUBTRACT,
    &elementwise_unary::SWISH,
    &elementwise_unary::TAN,
    &elementwise_unary::TANH,
    &tile::DEF,
    &topk::DEF,
    &transpose::DEF,
    &unique::DEF,
    &unsqueeze::DEF,
    &variadic_split::DEF,
    &elementwise_binary::XOR,
];
