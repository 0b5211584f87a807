// The page's lazily loaded verifiers, one chunk (src/ui/page/App.tsx imports this on demand).
export { verifyPermitToSign } from './verifyPermitToSign'
export { verifyPreparedPayment } from './verifyPreparedPayment'
export { verifyFundingPermitToSign } from './verifyFundingPermitToSign'
export { simulatePayment } from '../chain/simulatePayment'
