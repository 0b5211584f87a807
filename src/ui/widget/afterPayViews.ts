import { DevnetWalletPrompt } from './DevnetWalletPrompt'
import { ErrorView } from './ErrorView'
import { FundingView } from './FundingView'
import { InsufficientBalanceView } from './InsufficientBalanceView'
import { PendingView } from './PendingView'
import { PermitExpiredView } from './PermitExpiredView'
import { PermitView } from './PermitView'
import { ReceiptView } from './ReceiptView'
import { SigningOperationView } from './SigningOperationView'
import { SmartWalletView } from './SmartWalletView'
import { UnsafeView } from './UnsafeView'

/** The views a payer meets only from Pay on (or on one path only: funding, a smart wallet, the devnet
 * wallet, an error): one chunk apart from the page's initial ones (src/ui/widget/lazyViews.tsx). */
export const afterPayViews = {
  DevnetWalletPrompt,
  ErrorView,
  FundingView,
  InsufficientBalanceView,
  PendingView,
  PermitExpiredView,
  PermitView,
  ReceiptView,
  SigningOperationView,
  SmartWalletView,
  UnsafeView,
}
